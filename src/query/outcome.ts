// What executing a prepared query came to: shared by the executor (./run.ts) and the stages wrapped around it
// (./cache-stage.ts), so neither imports the other for it.

export interface Outcome {
  status: 'completed' | 'failed';
  rowCount: number;
  error: string | null;
  /** Answered from the result cache (a stored result, or another run's under way): no query ran for it. */
  cacheHit?: boolean;
}
