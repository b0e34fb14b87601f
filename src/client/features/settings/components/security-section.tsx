import { useSessions } from '../api/sessions';
import { useTwoFactor } from '../api/two-factor';
import { Loaded } from './loaded';
import { SessionsPanel } from './sessions-panel';
import { TwoFactorPanel } from './two-factor-panel';

/** Settings → Security: the active sessions, and two-factor authentication. The page gives it its heading. */
export function SecuritySection() {
  const sessions = useSessions();
  const twoFactor = useTwoFactor();
  return (
    <>
      <Loaded query={sessions}>{(list) => <SessionsPanel sessions={list} />}</Loaded>
      <Loaded query={twoFactor}>{(status) => <TwoFactorPanel status={status} />}</Loaded>
    </>
  );
}
