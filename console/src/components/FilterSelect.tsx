export interface Choice {
  value: string;
  label: string;
}

/** A labelled select whose first option, the empty value, means "any"; `choices` is undefined while they load. */
export function FilterSelect({
  label,
  value,
  onChange,
  choices,
  anyLabel = 'Any',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[] | undefined;
  anyLabel?: string;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{anyLabel}</option>
        {choices?.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
