// The outlets' own settings: where the night's and the close's outcome goes. The pipeline builds them once
// from the options (a setting that cannot work, such as --mail-to without an SMTP server, is a misuse found
// before the run starts); the outlets never see flags or variables.
import type { DeliveryLimits } from './limits.js';
import type { MailSettings } from './mail.js';
import type { NotifyDocument } from './notify-schema.js';

export interface OutletSettings {
  mail: MailSettings | null;
  notifyUrls: string[];
  pingUrl: string | null;
  metricsFile: string | null;
  junitFile: string | null;
  reportsDir: string;
  published: string;
  serviceUrl: string | null;
  logFile: string | null;
  /** Never in any outlet's output: the API key, the SMTP password, … (the command's one list). */
  secrets: readonly string[];
  limits: DeliveryLimits;
  now: () => Date;
  /** The demo: each document as it would be posted (`make run` has no webhook to post to). */
  onDocument?: (doc: NotifyDocument) => void | Promise<void>;
}

/** A close's outlets are a night's (its journal files are the close's own: src/close/journal-files.ts). */
export type CloseOutletSettings = OutletSettings;
