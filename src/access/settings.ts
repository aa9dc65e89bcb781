// What the accountants' side needs: which files are recon's own (never read as a snapshot, never written
// over by an --out or an export), and what one session may use.
import type { SessionLimits } from './snapshot.js';
import type { OwnFiles } from './own-files.js';

export interface AccessSettings {
  layout: OwnFiles;
  limits: SessionLimits;
}
