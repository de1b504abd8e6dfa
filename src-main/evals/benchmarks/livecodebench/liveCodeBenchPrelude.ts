/**
 * What LiveCodeBench's own harness imports before a solution: competitive code often leans on
 * these names without importing them (`List`, `defaultdict`, `heappush`, `lru_cache`, ...).
 */
export const liveCodeBenchPrelude = [
  "import sys, os, re, math, string, random, heapq, bisect, itertools, functools, collections, operator",
  "from typing import *",
  "from collections import *",
  "from heapq import *",
  "from bisect import *",
  "from itertools import *",
  "from functools import *",
  "from math import *",
  "sys.setrecursionlimit(1 << 20)",
].join("\n");
