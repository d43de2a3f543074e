/**
 * The crank loop's start/pause switch: always in the status line, on every screen. A plain button whose name
 * says what it does ("Pause keeper" / "Resume keeper").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StatusView } from '@shared/contract/status';
import { useBridge } from '../queries';

export function PauseSwitch({ status }: { status: StatusView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (paused: boolean) => bridge.call('setPaused', { paused }),
    onSuccess: (next) => client.setQueryData(['status'], next),
  });
  return (
    <span className="pause">
      <button
        type="button"
        className={status.paused ? 'primary' : 'danger'}
        disabled={toggle.isPending}
        aria-busy={toggle.isPending}
        onClick={() => toggle.mutate(!status.paused)}
      >
        {status.paused ? 'Resume keeper' : 'Pause keeper'}
      </button>
      {toggle.error && (
        <span role="alert" className="error">
          Could not {status.paused ? 'resume' : 'pause'} the keeper: {toggle.error.message}
        </span>
      )}
    </span>
  );
}
