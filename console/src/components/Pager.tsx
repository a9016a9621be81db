/**
 * The two buttons of a keyset-paged list: `cursors` is the stack of cursors that led to the shown page (empty on the
 * first), so going back pops one and going on pushes the page's `nextCursor`.
 */
export function Pager({
  cursors,
  onChange,
  nextCursor,
  labels = ['Previous', 'Next'],
}: {
  cursors: string[];
  onChange: (cursors: string[]) => void;
  nextCursor: string | null | undefined;
  labels?: [back: string, on: string];
}) {
  return (
    <>
      <button type="button" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        {labels[0]}
      </button>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && onChange([...cursors, nextCursor])}>
        {labels[1]}
      </button>
    </>
  );
}
