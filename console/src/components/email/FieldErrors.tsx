import { ApiError } from '../../api/errors';
import { ErrorBox } from '../status';

interface FieldProblem {
  path: string;
  rule: string;
  message: string;
}

/** The envelope's message and, for a validation failure, each field it names with the broken rule. */
export function FieldErrors({ error }: { error: unknown }) {
  const fields = error instanceof ApiError && Array.isArray(error.details.fields) ? (error.details.fields as FieldProblem[]) : [];
  return (
    <>
      <ErrorBox error={error} />
      {fields.length > 0 ? (
        <ul className="email-field-errors" aria-label="Problems by field">
          {fields.map((field) => (
            <li key={`${field.path}-${field.rule}`}>
              <code>{field.path}</code> ({field.rule}): {field.message}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
