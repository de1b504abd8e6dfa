/**
 * The text the test tokenizer is trained on: plain ASCII prose, Python, numbers, JSON and ChatML
 * transcripts, so the learned merges look like a small real tokenizer's (common words, code
 * keywords, indentation) and the chat template's words ("user", "assistant", "system") become
 * single tokens. Changing this text changes every generated model file.
 */
export const trainingCorpus = String.raw`The quick brown fox jumps over the lazy dog. The dog did not mind; it was a lazy afternoon.
A small model can still be a useful model. It reads the text, it predicts the next token, and it does this
again and again until the answer is complete or the user stops it. The server keeps the model in memory,
shares it between requests, and answers each request as soon as it can.

In the morning the town was quiet. The baker opened the shop at six, the first train left at seven, and the
children walked to school along the river. By noon the market was full of people who wanted bread, apples,
cheese, fish and fresh flowers. Nobody was in a hurry, and everybody had time for a short conversation.

Speed matters, but correctness matters more. A fast answer that is wrong is not an answer at all. That is why
we measure both: how good a model is on real tasks, and how fast it runs on the machine you actually have.
The results are kept as history, so you can see whether a new version of a model is better than the old one.

Reading is the best way to learn to write. Writing is the best way to learn to think. Thinking is the best
way to learn what you do not know yet. When you do not know something, say so, and then find out.

The weather today will be mostly sunny with a light wind from the west. Temperatures will reach 21 degrees in
the afternoon and fall to 12 degrees at night. Tomorrow there is a chance of rain in the north of the country.

Once upon a time there was a little robot who wanted to learn how to paint. Every day it looked at the sky and
tried to mix the right blue. Some days the blue was too dark, and some days it was too light, but the robot
kept trying, and after a hundred days it painted a sky so clear that the birds tried to fly into it.

The history of computing is a history of people who refused to accept that a problem was too hard. They built
machines from relays, then from tubes, then from transistors, and finally from chips that hold billions of
switches. Each step made the next one possible, and each generation stood on the shoulders of the last.

Questions and answers:
What is the capital of France? The capital of France is Paris.
How many days are there in a week? There are seven days in a week.
What is two plus two? Two plus two is four.
Which planet is closest to the sun? Mercury is the planet closest to the sun.
Who wrote the play about the prince of Denmark? It was written by William Shakespeare.
Why is the sky blue? Sunlight is scattered by the air, and blue light is scattered the most.

Numbers: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 32 42 64 100 128 256 512 1000
1024 2048 4096 8192 65536 3.14159 2.71828 1.41421 0.5 0.25 0.125 -1 -42 1e-6 1e6 2024 2025 365 24 60 3600
The total was 1,234.56 dollars, or about 1,100 euros. The train leaves at 07:45 and arrives at 10:30.
Step 1: add 17 and 25 to get 42. Step 2: multiply 42 by 3 to get 126. Step 3: subtract 6 to get 120.
So the answer is 120. Janet has 16 eggs; she eats 3 and bakes with 4, so she sells 9 eggs for 2 dollars each,
which is 18 dollars a day.

def add(a, b):
    """Return the sum of a and b."""
    return a + b


def fibonacci(n):
    """Return the n-th Fibonacci number."""
    if n < 2:
        return n
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return b


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    for i in range(2, int(n ** 0.5) + 1):
        if n % i == 0:
            return False
    return True


def count_words(text: str) -> dict:
    counts = {}
    for word in text.lower().split():
        word = word.strip(".,;:!?")
        if not word:
            continue
        counts[word] = counts.get(word, 0) + 1
    return counts


class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("pop from empty stack")
        return self.items.pop()

    def __len__(self):
        return len(self.items)


def binary_search(items, target):
    low, high = 0, len(items) - 1
    while low <= high:
        middle = (low + high) // 2
        if items[middle] == target:
            return middle
        if items[middle] < target:
            low = middle + 1
        else:
            high = middle - 1
    return -1


def main():
    numbers = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    print("sorted:", sorted(numbers))
    print("sum:", sum(numbers), "max:", max(numbers))
    print(f"fib(10) = {fibonacci(10)}")
    for value in numbers:
        if is_prime(value):
            print(value, "is prime")
    with open("data.txt", "w") as handle:
        handle.write("hello world\n")


if __name__ == "__main__":
    main()

import json
import os
from typing import List, Optional


def load_config(path: str) -> Optional[dict]:
    if not os.path.exists(path):
        return None
    with open(path, "r", encoding="utf-8") as handle:
        return json.load(handle)


def average(values: List[float]) -> float:
    if len(values) == 0:
        raise ValueError("average of an empty list")
    return sum(values) / len(values)


assert add(2, 3) == 5
assert fibonacci(10) == 55
assert is_prime(7) and not is_prime(9)
assert binary_search([1, 3, 5, 7], 5) == 2

{"model": "perch-test", "messages": [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": "Hello!"}], "temperature": 0.7, "max_tokens": 128, "stream": true}
{"id": "chatcmpl-123", "object": "chat.completion", "created": 1700000000, "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello! How can I help you today?"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21}}
{"name": "benchmark", "version": "1.0.0", "tasks": ["humaneval", "mbpp", "gsm8k"], "results": {"accuracy": 0.42, "tokens_per_second": 35.5, "time_to_first_token_ms": 120}}
{"settings": {"port": 8080, "host": "127.0.0.1", "threads": 4, "context_size": 4096, "gpu_layers": 0, "enabled": false, "tags": null}}

<|im_start|>system
You are a helpful assistant.<|im_end|>
<|im_start|>user
What is the capital of France?<|im_end|>
<|im_start|>assistant
The capital of France is Paris.<|im_end|>
<|im_start|>user
Write a function that returns the square of a number.<|im_end|>
<|im_start|>assistant
def square(x):
    return x * x<|im_end|>
<|im_start|>system
You are a careful assistant that answers briefly.<|im_end|>
<|im_start|>user
How many legs does a spider have?<|im_end|>
<|im_start|>assistant
A spider has eight legs.<|im_end|>
<|im_start|>user
Thank you!<|im_end|>
<|im_start|>assistant
You are welcome. Is there anything else I can help you with?<|im_end|>
<|im_start|>user
Tell me a short story about a cat.<|im_end|>
<|im_start|>assistant
There was once a cat who lived in a library. Every night it walked along the shelves and chose a book to sleep on.<|im_end|>
<|im_start|>user
Summarize the text in one sentence.<|im_end|>
<|im_start|>assistant
The text explains how a small server runs local language models and measures their quality and speed.<|im_end|>

Good documentation answers three questions: what does this do, why does it exist, and how do I use it? If a
reader has to open the source code to answer one of them, the documentation is not finished. Examples help
more than long explanations, and a short example that runs is worth more than a long one that does not.

When two requests arrive at the same time, the scheduler puts them into the same batch. Each request has its
own sequence in the context, its own position, and its own sampler. When one request finishes, its slot is
freed and the next waiting request takes its place. Nothing that one request does may change the answer of
another request; the output must be the same whether a request runs alone or together with others.

error: file not found
warning: the value is larger than expected
info: server listening on http://127.0.0.1:8080
debug: loaded model in 0.42 seconds
Traceback (most recent call last):
  File "main.py", line 12, in <module>
    result = divide(1, 0)
ZeroDivisionError: division by zero
`;
