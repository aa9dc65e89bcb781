// What the doctor looks at: the service as a night would reach it, and the places a night writes.
import type { StoreLayout } from '../store/layout.js';
import type { PostgresTarget } from '../warehouse/target.js';
import type { OutputPath } from '../access/own-files.js';

export interface DoctorSettings {
  /** The service and key, or why the options give none (said as the service line's failure). */
  service: { apiUrl: string; apiKey: string } | { error: string };
  timeoutMs: number;
  /** 0: payment details are never read, so the key need not read them. */
  sampleBudget: number;
  layout: StoreLayout;
  /** Absolute. */
  reportsDir: string;
  /** The host-wide budget file (absolute), or null. */
  budgetFile: string | null;
  /** The PostgreSQL a night exports to (--export-postgres), or null. */
  warehouse: PostgresTarget | null;
  /** The paths the options name for recon to write: none may be one of recon's own files. */
  outputs: OutputPath[];
}
