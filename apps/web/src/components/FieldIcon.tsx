// The small outline icons at a field's end, each a frame and a stroke: hidden from screen readers,
// as the field (read-only) or its button (the calendar) is named.
const SHAPES = {
  /** A read-only field's padlock. */
  lock: { size: 14, frame: { x: 3, y: 7, width: 10, height: 7 }, stroke: 'M5.5 7V5a2.5 2.5 0 0 1 5 0v2' },
  /** A date field's calendar button. */
  calendar: { size: 16, frame: { x: 2, y: 3, width: 12, height: 11 }, stroke: 'M2 6.5h12M5.5 1.5v3M10.5 1.5v3' },
};

export function FieldIcon({ shape }: { shape: keyof typeof SHAPES }) {
  const { size, frame, stroke } = SHAPES[shape];
  return (
    <svg viewBox="0 0 16 16" width={size} height={size} aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
      <rect {...frame} rx="1.5" />
      <path d={stroke} />
    </svg>
  );
}
