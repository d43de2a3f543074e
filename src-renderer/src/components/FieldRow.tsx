/** The settings forms' rows: a label, its input (with a unit), a note and the input's inline error. */
import { useState, type ChangeEvent, type ReactNode } from 'react';

/** A label, its input and the input's inline error (wired with aria-describedby). */
export function FieldRow({
  id,
  label,
  error,
  note,
  children,
}: {
  id: string;
  label: string;
  error?: string | null;
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="field">
        {children}
        {note && <span className="muted note">{note}</span>}
        {error && (
          <span id={`${id}-error`} className="field-error">
            {error}
          </span>
        )}
      </div>
    </>
  );
}

/** A text input (or, with rows, a textarea) in a FieldRow: marked invalid and described by its error when it has one. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  note,
  unit,
  placeholder,
  readOnly,
  numeric,
  rows,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  note?: ReactNode;
  unit?: string;
  placeholder?: string;
  readOnly?: boolean;
  numeric?: boolean;
  rows?: number;
}) {
  const common = {
    id,
    value,
    placeholder,
    readOnly,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
  };
  return (
    <FieldRow id={id} label={label} error={error} note={note}>
      {rows ? (
        <textarea rows={rows} {...common} />
      ) : (
        <input type="text" inputMode={numeric ? 'numeric' : undefined} {...common} />
      )}
      {unit && <span className="unit">{unit}</span>}
    </FieldRow>
  );
}

/**
 * A path field's text and its error. `take()` gives the trimmed path, or, with none entered, shows
 * `missing` under the field and gives null.
 */
export function usePathField(missing: string) {
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const take = () => {
    const trimmed = path.trim();
    setError(trimmed ? null : missing);
    return trimmed || null;
  };
  return { path, setPath, error, setError, take };
}

/** A file the keeper's process reads: its path on the machine that runs the keeper. */
export function PathField({
  id,
  label,
  placeholder,
  field,
}: {
  id: string;
  label: string;
  placeholder: string;
  field: ReturnType<typeof usePathField>;
}) {
  return (
    <TextField
      id={id}
      label={label}
      value={field.path}
      placeholder={placeholder}
      error={field.error}
      note="a path on the machine that runs the keeper"
      onChange={field.setPath}
    />
  );
}
