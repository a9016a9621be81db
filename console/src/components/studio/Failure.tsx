import { ApiError } from '../../api/errors';
import { WriteError } from '../Conflict';

interface FieldProblem {
  path: string;
  rule: string;
  message?: string;
}

/** A failed write with the envelope's field problems listed (400 `details.fields`); 409 If-Match as a reload. */
export function Failure({ error, what, onReload }: { error: unknown; what: string; onReload?: () => void }) {
  const fields = error instanceof ApiError && Array.isArray(error.details.fields) ? (error.details.fields as FieldProblem[]) : [];
  return (
    <>
      <WriteError error={error} what={what} onReload={onReload ?? (() => window.location.reload())} />
      {fields.length > 0 ? (
        <ul className="sf-problems" aria-label="Problems in the request">
          {fields.map((field, index) => (
            <li key={index}>
              <code>{field.path}</code>: {field.message ?? field.rule}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
