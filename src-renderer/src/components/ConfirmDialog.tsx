/**
 * A confirmation before something that cannot be undone: the question (bold) and what follows from it,
 * a danger button that does it and Cancel. Both are disabled while it runs.
 */
import type { ReactNode } from 'react';

export function ConfirmDialog(props: {
  id: string;
  question: ReactNode;
  consequence: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <div role="alertdialog" aria-labelledby={props.id} className="confirm">
      <p id={props.id}>
        <strong>{props.question}</strong> {props.consequence}
      </p>
      <div className="actions">
        <button type="button" className="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
