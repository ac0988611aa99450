// Set-up of every test file: fast-check's default number of cases (for the properties that name no
// count) follows the run's profile (test/property-runs.ts).
import fc from 'fast-check';
import { runs } from './property-runs.js';

fc.configureGlobal({ numRuns: runs(100) });
