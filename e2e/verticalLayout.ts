import type { Page } from "playwright-core";

/**
 * Vertical clipping: every control and every scrolling box in the page must be reachable. A box
 * inside a box that hides its overflow must fit in it; a box inside a scrolling box is reachable
 * by scrolling, but that scrolling box must itself fit; with nothing scrolling above it, a box must
 * fit in the window (unless the whole page scrolls). Answers one line per clipped element.
 */
export async function verticallyClippedElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped: string[] = [];
    const height = document.documentElement.clientHeight;
    const pageScrolls = document.documentElement.scrollHeight > height + 1;
    const scrolls = (element: Element) => /auto|scroll/.test(getComputedStyle(element).overflowY);
    const hides = (element: Element) => /hidden|clip/.test(getComputedStyle(element).overflowY);
    const scrollBoxes = Array.from(document.querySelectorAll<HTMLElement>("main *, [role=dialog] *")).filter(
      (element) => scrolls(element) && element.clientHeight > 0,
    );
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>(
        "main button, main select, main input, main textarea, main a, [role=dialog] button, [role=dialog] select, [role=dialog] input, [role=dialog] textarea",
      ),
    );
    for (const element of [...scrollBoxes, ...controls]) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const fixed = getComputedStyle(element).position === "fixed";
      let frame: { top: number; bottom: number } | null =
        pageScrolls && !fixed ? { top: -Infinity, bottom: Infinity } : { top: 0, bottom: height };
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        if (scrolls(parent)) {
          frame = null;
          break;
        }
        if (hides(parent)) {
          const parentBox = parent.getBoundingClientRect();
          frame = {
            top: Math.max(frame.top, parentBox.top),
            bottom: Math.min(frame.bottom, parentBox.bottom),
          };
        }
      }
      if (frame && (box.top < frame.top - 1 || box.bottom > frame.bottom + 1)) {
        const className = typeof element.className === "string" ? element.className.split(" ")[0] : "";
        const name =
          element.getAttribute("data-testid") ??
          (className ? `.${className}` : element.textContent?.trim().slice(0, 30) || element.tagName);
        clipped.push(
          `${element.tagName.toLowerCase()} "${name}" spans ${Math.round(box.top)}–${Math.round(box.bottom)}, visible ${Math.round(frame.top)}–${Math.round(frame.bottom)}`,
        );
      }
    }
    return clipped;
  });
}

/** Pairs of the given test ids whose boxes overlap (each pair once), e.g. the chat options and messages. */
export async function overlappingBoxes(page: Page, testIds: string[]): Promise<string[]> {
  return page.evaluate((ids) => {
    const boxes = ids
      .map((id) => ({ id, element: document.querySelector(`[data-testid="${id}"]`) }))
      .filter((entry): entry is { id: string; element: Element } => entry.element !== null)
      .map((entry) => ({ id: entry.id, box: entry.element.getBoundingClientRect() }));
    const overlaps: string[] = [];
    for (const [index, first] of boxes.entries()) {
      for (const second of boxes.slice(index + 1)) {
        const width = Math.min(first.box.right, second.box.right) - Math.max(first.box.left, second.box.left);
        const height =
          Math.min(first.box.bottom, second.box.bottom) - Math.max(first.box.top, second.box.top);
        if (width > 1 && height > 1)
          overlaps.push(`${first.id} overlaps ${second.id} by ${Math.round(width)}×${Math.round(height)}`);
      }
    }
    return overlaps;
  }, testIds);
}
