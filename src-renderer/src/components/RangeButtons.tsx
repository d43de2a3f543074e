/** A row of toggle buttons choosing one of a few time ranges (the earnings chart, the step table). */
export function RangeButtons({
  label,
  ranges,
  chosen,
  onChoose,
}: {
  label: string;
  ranges: readonly { label: string }[];
  chosen: number;
  onChoose(index: number): void;
}) {
  return (
    <div className="range" role="group" aria-label={label}>
      {ranges.map((range, index) => (
        <button
          key={range.label}
          type="button"
          aria-pressed={index === chosen}
          onClick={() => onChoose(index)}
        >
          {range.label}
        </button>
      ))}
    </div>
  );
}
