import { useEffect } from 'react';

/** Each route names itself in the page title. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Crewboard`;
  }, [title]);
}
