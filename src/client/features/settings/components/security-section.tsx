import { useProfile } from '../api/get-profile';
import { useSessions } from '../api/sessions';
import { useTwoFactor } from '../api/two-factor';
import { Loaded } from './loaded';
import { SessionsPanel } from './sessions-panel';
import { TwoFactorPanel } from './two-factor-panel';

/** Settings → Security: the active sessions, and two-factor authentication. The page gives it its heading. */
export function SecuritySection() {
  const sessions = useSessions();
  const twoFactor = useTwoFactor();
  // Whether the account has a password to ask for again (the page has this query already).
  const profile = useProfile();
  return (
    <>
      <Loaded query={sessions}>{(list) => <SessionsPanel sessions={list} />}</Loaded>
      <Loaded query={twoFactor}>
        {(status) => <Loaded query={profile}>{(p) => <TwoFactorPanel status={status} hasPassword={p.hasPassword} />}</Loaded>}
      </Loaded>
    </>
  );
}
