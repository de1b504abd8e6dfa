import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  testId?: string;
}

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A sheet over the window; Escape and the backdrop close it. It holds the keyboard while open, as
 * a dialog should: focus moves into it (its first field, else its first control), Tab and
 * Shift+Tab cycle inside it, and closing gives focus back to the control that opened it. With a
 * dialog over it (a confirmation), only the topmost one answers the keyboard.
 */
export function Modal({ title, onClose, children, footer, wide, testId }: ModalProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before the commit: a control inside with `autoFocus` (a confirmation's
  // Cancel) already has the focus when effects run, and the opener would be lost.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    const controls = () =>
      Array.from(dialog.current?.querySelectorAll<HTMLElement>(focusable) ?? []).filter(
        (element) => element.getClientRects().length > 0,
      );
    const body = dialog.current?.querySelector<HTMLElement>(".modal-body");
    const field = body?.querySelector<HTMLElement>("input, select, textarea");
    (field ?? controls()[0] ?? dialog.current)?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [opener]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const open = document.querySelectorAll("[role=dialog][aria-modal=true]");
      if (open[open.length - 1] !== dialog.current) return;
      if (event.key === "Escape") onClose();
      if (event.key !== "Tab" || !dialog.current) return;
      const list = Array.from(dialog.current.querySelectorAll<HTMLElement>(focusable)).filter(
        (element) => element.getClientRects().length > 0,
      );
      if (list.length === 0) return;
      const first = list[0]!;
      const last = list[list.length - 1]!;
      const inside = dialog.current.contains(document.activeElement);
      if (!inside || (event.shiftKey && document.activeElement === first)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <div
        ref={dialog}
        className={wide ? "modal modal-wide" : "modal"}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        tabIndex={-1}
      >
        <header className="modal-header">
          <h2>{title}</h2>
          <button type="button" className="icon-button" aria-label={t("common.close")} onClick={onClose}>
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer ? <footer className="modal-footer">{footer}</footer> : null}
      </div>
    </div>
  );
}
