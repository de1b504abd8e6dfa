const codeLine =
  /^\s*(def |class |return\b|for |while |if |elif |else:|import |from \S+ import|print\(|yield\b|raise\b|try:|with |[A-Za-z_][\w.[\]]*\s*(=|\+=|-=|\*=)[^=])/m;

/** Whether unfenced text contains anything that reads as Python (else the response is `no_code`). */
export function looksLikeCode(text: string): boolean {
  return codeLine.test(text);
}
