import { useEffect, useRef, useState, type ReactNode } from "react";

export interface MenuAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}

/**
 * A "⋯" button with a popup list of actions: where a row has no room for its buttons (narrow
 * windows), its actions collapse into this. Escape or a click elsewhere closes it.
 */
export function ActionMenu({
  label,
  actions,
  testId,
  icon,
}: {
  label: string;
  actions: MenuAction[];
  testId?: string;
  icon?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      trigger.current?.focus();
    };
    window.addEventListener("mousedown", onPointer);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("mousedown", onPointer);
      window.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div className="action-menu" ref={root}>
      <button
        type="button"
        className="icon-button action-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        ref={trigger}
        onClick={() => setOpen(!open)}
        data-testid={testId}
      >
        {icon ?? "⋯"}
      </button>
      {open ? (
        <ul className="action-menu-list" role="menu">
          {actions.map((action) => (
            <li key={action.label} role="none">
              <button
                type="button"
                role="menuitem"
                className={action.danger ? "action-menu-item danger" : "action-menu-item"}
                disabled={action.disabled}
                onClick={() => {
                  // Focus goes back to "⋯" first: a dialog the action opens returns it there
                  // when it closes (the item itself is gone by then).
                  trigger.current?.focus();
                  setOpen(false);
                  action.onSelect();
                }}
                data-testid={action.testId}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
