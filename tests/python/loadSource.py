"""Imports one of Perch's Python programs from src-main as a module, so its helpers can be tested.
Importing runs none of the program: each file starts its work only when it is __main__."""
import importlib.util
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def load_source(relative, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, relative))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
