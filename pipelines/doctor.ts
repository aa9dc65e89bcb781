// recon doctor: the doctor stage (src/doctor) on the settings a night would run with.
import type { ExitCode } from '../src/errors.js';
import { diagnose, type DoctorLine, type DoctorOptions } from '../src/doctor/index.js';
import type { Config } from './config.js';
import { doctorSettings } from './settings.js';

export function runDoctor(config: Config, o: DoctorOptions = {}): Promise<{ code: ExitCode; lines: DoctorLine[] }> {
  return diagnose(doctorSettings(config), o);
}
