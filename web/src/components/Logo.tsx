/** Quarry's mark (the same drawing as /favicon.svg). */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="6" fill="#509EE3" />
      <path d="M8 22l6-12 4 7 3-4 3 9z" fill="#fff" />
    </svg>
  );
}
