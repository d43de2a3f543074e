/**
 * One saved-at-once setting: a checkbox that follows the saved value (it turns once the core has kept the
 * change), what it means, and the error when saving failed. Settings, Settings → Alerts and Settings →
 * Desktop app build their switches with it.
 */
import type { ReactNode } from 'react';

export function SettingToggle(props: {
  label: string;
  checked: boolean;
  saving: boolean;
  note: ReactNode;
  error?: Error | null;
  onChange(checked: boolean): void;
}) {
  return (
    <div className="actions">
      <label className="radio">
        <input
          type="checkbox"
          checked={props.checked}
          disabled={props.saving}
          onChange={(e) => props.onChange(e.target.checked)}
        />{' '}
        {props.label}
      </label>
      <span className="muted">{props.note}</span>
      {props.error && (
        <span role="alert" className="error">
          {props.error.message}
        </span>
      )}
    </div>
  );
}
