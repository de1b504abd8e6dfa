import type { ReactNode } from "react";

interface CardProps {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  className?: string;
}

/** A grouped box of the page (macOS "inset grouped" look). */
export function Card({ title, actions, children, testId, className }: CardProps) {
  return (
    <section className={className ? `card ${className}` : "card"} data-testid={testId}>
      {title || actions ? (
        <header className="card-header">
          {title ? <h3>{title}</h3> : <span />}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </header>
      ) : null}
      <div className="card-body">{children}</div>
    </section>
  );
}
