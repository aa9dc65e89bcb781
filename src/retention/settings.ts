// What the retention covers (recon prune): how many days are kept, and where recon's own files are.
export interface RetentionSettings {
  keepDays: number;
  reportsDir: string;
  filesDir: string;
  /** The JSON log files trimmed to the kept days: --log-file, and the terminal's logs/recon.log beside the store. */
  logFiles: string[];
}

/** The most days the option takes: a century keeps everything recon has ever written. */
export const MAX_KEEP_DAYS = 36_500;
