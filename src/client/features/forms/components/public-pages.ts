// The public pages of request forms (issue 40): one chunk, loaded outside the app shell without signing in.
export { PublicFormPage } from './public-form-page';
export { RequestStatusPage } from './request-status-page';
