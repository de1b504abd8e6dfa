import { Markdown } from "markdown-to-jsx/react";
import { memo, type ReactNode } from "react";
import { highlightCode } from "./highlightCode.js";

/** `<code>`: fenced blocks (class `lang-x`) are highlighted; inline code stays as is. */
function Code({ className, children }: { className?: string; children?: ReactNode }) {
  const language = /(?:^|\s)lang(?:uage)?-([\w+#-]+)/.exec(className ?? "")?.[1]?.toLowerCase();
  const source = typeof children === "string" ? children : null;
  const html = source !== null && language ? highlightCode(source, language) : null;
  if (html === null) return <code className={className}>{children}</code>;
  // Safe: highlight.js escapes the source and adds only its own spans.
  return <code className={`${className ?? ""} hljs`} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Links from a model's text open outside the dashboard, without the page as referrer. */
function Link({ href, children }: { href?: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

/**
 * A table scrolls sideways in its own box, as code blocks do: wide tables stay inside the reply
 * and their cells keep words whole. Focusable, so the keyboard can scroll it too.
 */
function Table({ children }: { children?: ReactNode }) {
  return (
    <div className="markdown-table" tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

const options = {
  // Model output is untrusted: raw HTML is shown as text, never parsed into elements. No
  // `optimizeForStreaming`: it hides what looks like an unfinished tag, which in model text is
  // `Vec<String>`, `std::vector<int>` or `a < b` — and everything after it.
  disableParsingRawHTML: true,
  forceBlock: true,
  overrides: { code: { component: Code }, a: { component: Link }, table: { component: Table } },
};

/** A model's Markdown, rendered as React elements (no HTML injection), code highlighted. */
export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown options={options}>{text}</Markdown>
    </div>
  );
});
