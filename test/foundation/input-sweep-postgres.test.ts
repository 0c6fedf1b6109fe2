// The input sweep (./input-sweep.ts) on the postgres app DB; each app DB has its own file so the two run side by side.
import { inputSweep } from './input-sweep.js';

inputSweep('postgres');
