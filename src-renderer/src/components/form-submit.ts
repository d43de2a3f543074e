/** What the settings forms do on submit, once their fields are parsed: show the errors, or say nothing changed, or save. */
export function submitParsedForm<Errors extends object, Changes extends object>(
  parsed: { errors: Errors; changes: Changes },
  form: {
    setErrors(errors: Errors): void;
    setNothingChanged(nothingChanged: boolean): void;
    /** Clears the previous save's outcome (its error or "saved"). */
    resetSave(): void;
    save(changes: Changes): void;
  },
): void {
  form.setErrors(parsed.errors);
  form.resetSave();
  form.setNothingChanged(false);
  if (Object.keys(parsed.errors).length > 0) return;
  if (Object.keys(parsed.changes).length === 0) return form.setNothingChanged(true);
  form.save(parsed.changes);
}
