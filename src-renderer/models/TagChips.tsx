/** The user's own tags on a model. */
export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="muted">—</span>;
  return (
    <span className="chips">
      {tags.map((tag) => (
        <span key={tag} className="chip chip-tag" data-testid="tag-chip" title={tag}>
          {tag}
        </span>
      ))}
    </span>
  );
}
