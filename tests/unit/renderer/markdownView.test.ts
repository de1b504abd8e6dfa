import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownView } from "../../../src-renderer/chat/MarkdownView.js";

const render = (text: string) => renderToStaticMarkup(createElement(MarkdownView, { text }));
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("MarkdownView (chat replies)", () => {
  it.each([
    ["Rust type Vec<String> is common.", "Vec<String> is common."],
    ["A `std::vector<int> v` and HashMap<String, i32> map", "HashMap<String, i32> map"],
    ["if a < b and b > c then <catter and the rest", "<catter and the rest"],
    ["raw <div>html</div> stays text", "<div>html</div> stays text"],
  ])("shows %j whole", (text, tail) => {
    expect(textOf(render(text))).toContain(tail);
  });

  it("never turns model text into HTML elements", () => {
    const html = render('<img src=x onerror="alert(1)"> and <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
  });

  it("still renders Markdown: emphasis, lists and highlighted code", () => {
    const html = render("**bold**\n\n- one\n- two\n\n```python\nprint('x')\n```");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("hljs");
  });

  it("puts a table in its own sideways-scrolling box, as code blocks are", () => {
    const header = Array.from({ length: 12 }, (_, index) => `column_${index}`).join(" | ");
    const rule = Array.from({ length: 12 }, () => "---").join(" | ");
    const html = render(`| ${header} |\n| ${rule} |\n| ${Array(12).fill("x").join(" | ")} |`);
    expect(html).toMatch(/<div class="markdown-table" tabindex="0"><table>/);
    expect(html).toContain("<th>column_0</th>");
  });
});
