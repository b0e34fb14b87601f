import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useProviders } from '../api/google-api';

/**
 * 'Sign in with SSO' (issue 41): shown only when the server has a SAML identity provider configured. The server
 * redirects to the IdP, which posts back to /api/auth/saml/acs; the session arrives as Google sign-in's does.
 */
export function SsoButton() {
  const providers = useProviders();
  const [starting, setStarting] = useState(false);
  if (!providers.data?.sso) return null;
  return (
    <Button
      variant="secondary"
      size="lg"
      className="w-full justify-center"
      isLoading={starting}
      onClick={() => {
        setStarting(true);
        window.location.assign('/api/auth/saml/start');
      }}
    >
      <KeyRound className="h-4 w-4" aria-hidden />
      Sign in with SSO
    </Button>
  );
}
