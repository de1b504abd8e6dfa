import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { questionResultSchema, type QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import { QuestionDetails } from "../../../src-renderer/benchmarks/QuestionDetails.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";

const question = (overrides: Partial<QuestionResult> = {}): QuestionResult =>
  questionResultSchema.parse({
    id: "HumanEval/7",
    correct: false,
    expected: "the benchmark's tests",
    extracted: "def f(x):\n    return y",
    response: "```python\ndef f(x):\n    return y\n```",
    pass_mode: null,
    failure_type: "runtime_error",
    error: "NameError: name 'y' is not defined",
    time_s: 0.4,
    category: "",
    ...overrides,
  });

const render = (value: QuestionResult, locale: "en" | "de" = "en") =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n(locale) },
      createElement(QuestionDetails, { question: value }),
    ),
  );

describe("QuestionDetails", () => {
  it("shows every repair tried with its outcome and output, and the failing check's traceback", () => {
    const html = render(
      question({
        attempts: [
          {
            pass_mode: "block_1:as_is",
            outcome: "syntax_error",
            error: "SyntaxError: bad",
            output: "File x",
          },
          {
            pass_mode: "block_1:full_function",
            outcome: "runtime_error",
            error: "NameError: name 'y' is not defined",
            output: "Traceback (most recent call last):\n  in f\nNameError",
          },
        ],
        test_output:
          "Traceback (most recent call last):\n  File \"<candidate>\", line 2, in f\nNameError: name 'y'",
      }),
    );
    expect(html).toContain("Candidates and repairs tried");
    expect(html).toContain("block_1:as_is");
    expect(html).toContain("syntax_error");
    expect(html).toContain("block_1:full_function");
    const testOutput = /data-testid="test-output">([^<]*)</.exec(html)![1];
    expect(testOutput).toContain("line 2, in f");
  });

  it("still renders a result saved before repairs and test output were stored", () => {
    const html = render(question());
    expect(html).not.toContain('data-testid="attempts"');
    expect(/data-testid="test-output">([^<]*)</.exec(html)![1]).toContain("NameError");
  });

  it("marks the repair that passed, in the user's language", () => {
    const html = render(
      question({
        correct: true,
        failure_type: null,
        error: null,
        pass_mode: "block_1:full_function",
        attempts: [{ pass_mode: "block_1:full_function", outcome: "passed", error: null, output: "" }],
        test_output: null,
      }),
      "de",
    );
    expect(html).toContain("bestanden");
    expect(html).toContain("(keine Ausgabe)");
    expect(html).not.toContain('data-testid="test-output"');
  });
});
