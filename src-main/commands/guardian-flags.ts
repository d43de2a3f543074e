/**
 * `--guardian-keypair FILE [--guardian-pause-after-slots 60] [--guardian-resume-after-slots 20]` of `keeper`:
 * the guardian runs beside the keeper with that key. The thresholds mean nothing without the key, and a pause
 * past T_SETTLE would come too late.
 */
import { integerFlag, UsageError } from './cli-flags';
import { GUARDIAN_PAUSE_MAX_SLOTS, T_SETTLE_SLOTS } from '../../src-shared/wager-timing';

/**
 * The OperatorFlags fields the guardian flags set (empty without --guardian-keypair).
 * @example guardianFlags({ 'guardian-keypair': 'g.json', 'guardian-pause-after-slots': '40' }) // { guardianKeypairFile: 'g.json', guardianPauseAfterSlots: 40 }
 */
export function guardianFlags(values: { 'guardian-keypair'?: string; 'guardian-pause-after-slots'?: string; 'guardian-resume-after-slots'?: string }) {
  const file = values['guardian-keypair'];
  const pause = values['guardian-pause-after-slots'];
  const resume = values['guardian-resume-after-slots'];
  if (file === undefined) {
    if (pause !== undefined || resume !== undefined) throw new UsageError('--guardian-pause-after-slots and --guardian-resume-after-slots go with --guardian-keypair FILE');
    return {};
  }
  if (file === '') throw new UsageError('--guardian-keypair needs the path of the guardian\'s keypair file');
  const pauseAfter = pause === undefined ? undefined : integerFlag('guardian-pause-after-slots', pause, 1, 1);
  if (pauseAfter !== undefined && pauseAfter > GUARDIAN_PAUSE_MAX_SLOTS) throw new UsageError(`--guardian-pause-after-slots must be below ${T_SETTLE_SLOTS} (T_SETTLE: waiting wagers expire then), got ${pauseAfter}`);
  const resumeAfter = resume === undefined ? undefined : integerFlag('guardian-resume-after-slots', resume, 1, 1);
  return {
    guardianKeypairFile: file,
    ...(pauseAfter === undefined ? {} : { guardianPauseAfterSlots: pauseAfter }),
    ...(resumeAfter === undefined ? {} : { guardianResumeAfterSlots: resumeAfter }),
  };
}
