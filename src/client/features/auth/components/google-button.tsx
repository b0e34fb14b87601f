import { useState } from 'react';
import { MSG } from '../../../../domain/messages';
import { Button } from '../../../components/ui/button';
import { toast, toastError } from '../../../lib/toast';
import { useProviders } from '../api/google-api';

/**
 * Starts the Google (OpenID Connect) sign-in; the server redirects back to the site root.
 * When the server has no Google configuration, the button says so instead of navigating.
 */
export function GoogleButton() {
  const providers = useProviders();
  const [explain, setExplain] = useState(false);
  const [starting, setStarting] = useState(false);

  const start = async () => {
    try {
      const google = providers.data?.google ?? (await providers.refetch()).data?.google;
      if (google === undefined) throw new Error('providers unavailable');
      if (!google) {
        setExplain(true);
        toast.info(MSG.googleNotConfigured);
        return;
      }
      setStarting(true);
      window.location.assign('/api/auth/google/start');
    } catch (error) {
      setStarting(false);
      toastError(error, MSG.googleFailed);
    }
  };

  return (
    <div>
      <Button
        variant="secondary"
        size="lg"
        className="w-full justify-center"
        onClick={start}
        isLoading={starting}
        aria-describedby={explain ? 'google-unavailable' : undefined}
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true">
          <path fill="#4285F4" d="M22.5 12.3c0-.8-.1-1.5-.2-2.3H12v4.3h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8z" />
          <path
            fill="#34A853"
            d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23z"
          />
          <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7.1H2.1a11 11 0 0 0 0 9.9z" />
          <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4z" />
        </svg>
        Continue with Google
      </Button>
      {explain && (
        <p id="google-unavailable" role="status" className="mt-2 text-center text-sm text-amber-700 dark:text-amber-300">
          {MSG.googleNotConfigured}
        </p>
      )}
    </div>
  );
}
