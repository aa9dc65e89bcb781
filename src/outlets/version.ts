// recon's version, as package.json says it (sent as User-Agent and written into results files).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';

export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
