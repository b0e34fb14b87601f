/**
 * The sign-in and sign-up schemas (domain/auth-forms.ts) load when a form is first opened or
 * submitted: they bring zod, which the sign-in page's start-up JS does without (its budget).
 */
export const loadAuthForms = () => import('../../../../domain/auth-forms');

export type AuthForms = Awaited<ReturnType<typeof loadAuthForms>>;
