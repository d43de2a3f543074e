/** The crank loop's start/pause switch: always in the status line, on every screen. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StatusView } from '../../../src-main/operator/operator-interface';
import { useBridge } from '../queries';

export function PauseSwitch({ status }: { status: StatusView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (paused: boolean) => bridge.call('setPaused', { paused }),
    onSuccess: (next) => client.setQueryData(['status'], next),
  });
  return (
    <div className="pause">
      <button
        type="button"
        className={status.paused ? 'primary' : 'danger'}
        disabled={toggle.isPending}
        aria-busy={toggle.isPending}
        onClick={() => toggle.mutate(!status.paused)}
      >
        {status.paused ? 'Resume keeper' : 'Pause keeper'}
      </button>
      <span className={status.paused ? 'warn' : 'ok'}>{status.paused ? 'paused (saved): no new cranks' : 'cranking'}</span>
      {toggle.error && <p role="alert" className="error">Could not change it: {toggle.error.message}</p>}
    </div>
  );
}

