// Shared with Settings (a feature does not import another): the UI kit holds it.
export { PasswordField, PasswordRequirements } from '../../../components/ui/password-field';
