import { useEffect, useState } from 'react';
import type { Parameter } from './graph';
import { checkSchema, defaultsOf, fieldKind, formable, isParamRef, type Schema } from './schema';

interface FormProps {
  schema: Schema | null;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  parameters: Parameter[];
  /** Names the form for assistive technology, e.g. "Configuration of Scale". */
  title: string;
}

/**
 * A node's configuration: a form generated from the block's configuration schema (each value may instead come
 * from a version parameter, `{"$param": key}`), or a JSON editor for schemas the form cannot show; both are
 * checked against the schema as you type.
 */
export function SchemaForm({ schema, value, onChange, parameters, title }: FormProps) {
  const canForm = schema !== null && formable(schema);
  const [asJson, setAsJson] = useState(!canForm);
  const problems = schema ? checkSchema(schema, value) : [];
  return (
    <fieldset className="sf">
      <legend>{title}</legend>
      {canForm ? (
        <button type="button" className="link" onClick={() => setAsJson(!asJson)}>
          {asJson ? 'Edit as a form' : 'Edit as JSON'}
        </button>
      ) : (
        <p className="small">{schema ? 'This schema is edited as JSON.' : 'This block declares no configuration schema: any JSON object.'}</p>
      )}
      {asJson || !canForm ? (
        <JsonEditor label={`${title} (JSON)`} value={value} onChange={(next) => onChange((next ?? {}) as Record<string, unknown>)} />
      ) : (
        <ObjectFields schema={schema!} value={value} onChange={onChange} parameters={parameters} path="" />
      )}
      {problems.length > 0 ? (
        <ul className="sf-problems" aria-label={`Problems in ${title}`}>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

function ObjectFields({
  schema,
  value,
  onChange,
  parameters,
  path,
}: {
  schema: Schema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  parameters: Parameter[];
  path: string;
}) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const set = (key: string, next: unknown) => {
    const copy = { ...value };
    if (next === undefined) delete copy[key];
    else copy[key] = next;
    onChange(copy);
  };
  return (
    <div className="sf-fields">
      {Object.entries(properties).map(([key, property]) => (
        <Field
          key={key}
          name={key}
          label={path ? `${path}.${key}` : key}
          required={required.has(key)}
          schema={property}
          value={value[key]}
          onChange={(next) => set(key, next)}
          parameters={parameters}
        />
      ))}
    </div>
  );
}

function Field({
  name,
  label,
  required,
  schema,
  value,
  onChange,
  parameters,
}: {
  name: string;
  label: string;
  required: boolean;
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  parameters: Parameter[];
}) {
  const kind = fieldKind(schema);
  const hint = typeof schema.description === 'string' ? schema.description : undefined;
  if (kind === 'object-list') {
    const items = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
    const itemSchema = schema.items as Schema;
    return (
      <fieldset className="sf-list">
        <legend>
          {name}
          {required ? ' (required)' : ''}
        </legend>
        {items.map((item, index) => (
          <div key={index} className="sf-item">
            <ObjectFields
              schema={itemSchema}
              value={item ?? {}}
              parameters={parameters}
              path={`${label}[${index}]`}
              onChange={(next) => onChange(items.map((old, at) => (at === index ? next : old)))}
            />
            <button type="button" onClick={() => onChange(items.filter((_, at) => at !== index))}>
              Remove {label}[{index}]
            </button>
          </div>
        ))}
        <button type="button" onClick={() => onChange([...items, defaultsOf(itemSchema) ?? {}])}>
          Add to {label}
        </button>
      </fieldset>
    );
  }
  const fromParam = isParamRef(value) ? value.$param : '';
  return (
    <div className="sf-field">
      {fromParam ? (
        <p className="sf-param">
          {label}: from parameter <code>{fromParam}</code>
        </p>
      ) : (
        <PrimitiveInput kind={kind} label={`${label}${required ? ' (required)' : ''}`} schema={schema} value={value} onChange={onChange} hint={hint} />
      )}
      {parameters.length > 0 ? (
        <label className="sf-source">
          Source of {label}
          <select
            value={fromParam}
            onChange={(event) => onChange(event.target.value ? { $param: event.target.value } : defaultsOf(schema))}
          >
            <option value="">A fixed value</option>
            {parameters.map((parameter) => (
              <option key={parameter.key} value={parameter.key}>
                Parameter {parameter.key} ({parameter.type})
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}

function PrimitiveInput({
  kind,
  label,
  schema,
  value,
  onChange,
  hint,
}: {
  kind: string;
  label: string;
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  hint?: string;
}) {
  switch (kind) {
    case 'enum': {
      const options = schema.enum as unknown[];
      const index = options.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
      return (
        <label>
          {label}
          <select value={index < 0 ? '' : String(index)} onChange={(event) => onChange(event.target.value === '' ? undefined : options[Number(event.target.value)])}>
            <option value="">—</option>
            {options.map((option, at) => (
              <option key={at} value={at}>
                {typeof option === 'string' ? option : JSON.stringify(option)}
              </option>
            ))}
          </select>
        </label>
      );
    }
    case 'number':
    case 'integer':
      return (
        <label>
          {label}
          <input
            type="number"
            step={kind === 'integer' ? 1 : 'any'}
            min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
            max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
            value={typeof value === 'number' ? String(value) : ''}
            title={hint}
            onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
          />
        </label>
      );
    case 'boolean':
      return (
        <label className="inline">
          <input type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} /> {label}
        </label>
      );
    case 'string':
      return (
        <label>
          {label}
          <input value={typeof value === 'string' ? value : ''} title={hint} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)} />
        </label>
      );
    default:
      return <JsonEditor label={`${label} (JSON)`} value={value} onChange={onChange} single />;
  }
}

/** JSON text for one value; a text that does not parse is kept and shown as such until it does. */
export function JsonEditor({ label, value, onChange, single = false }: { label: string; value: unknown; onChange: (value: unknown) => void; single?: boolean }) {
  const shown = value === undefined ? '' : JSON.stringify(value, null, single ? undefined : 2);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  // A change from outside (another editor, a reset) replaces the text unless it says the same thing.
  useEffect(() => {
    setText((current) => {
      try {
        if (current.trim() !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(value)) return current;
      } catch {
        // keep the user's text below
      }
      return shown;
    });
  }, [shown, value]);
  const edit = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setError(null);
      onChange(undefined);
      return;
    }
    try {
      onChange(JSON.parse(next));
      setError(null);
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : 'Not JSON');
    }
  };
  return (
    <label>
      {label}
      {single ? (
        <input value={text} onChange={(event) => edit(event.target.value)} aria-invalid={error !== null} spellCheck={false} />
      ) : (
        <textarea rows={Math.min(16, Math.max(3, text.split('\n').length))} value={text} onChange={(event) => edit(event.target.value)} aria-invalid={error !== null} spellCheck={false} />
      )}
      {error ? <span className="sf-json-error">Not valid JSON: {error}</span> : null}
    </label>
  );
}
