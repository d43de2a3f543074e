/** The oracle stall banner, on every screen: from the health pushed every second; clears by itself. */
import { guardianHint, oracleStallLevel, stallMessage } from '../model/oracle';
import { useGuardian, useHealth, useStatus } from '../queries';
import { GoTo } from './GoTo';

export function StallBanner() {
  const wait = useHealth().data?.oracleWait;
  const cluster = useStatus().data?.cluster;
  const guardian = useGuardian().data;
  const level = oracleStallLevel(wait);
  if (!wait || level === 'none') return null;
  const { title, detail } = stallMessage(wait, level, Boolean(cluster?.wagerKeeperLocalnet), guardianHint(guardian));
  return (
    <div className={`banner stall ${level === 'critical' ? 'error' : 'warn'}`} role="alert" aria-label="Oracle stall">
      <strong>{title}.</strong> {detail} <GoTo screen="oracle">Open the Oracle screen</GoTo>
    </div>
  );
}
