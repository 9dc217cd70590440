export {
  BackButton,
  Button,
  CloseButton,
  linkButtonClass,
  PrimaryButton,
  SecondaryButton,
} from './buttons';
export {
  Checkbox,
  compactInputClass,
  controlProps,
  Field,
  inputClass,
  TextAreaField,
  TextField,
} from './field';
export { FormError, Notice } from './Notice';
export { PasswordField } from './PasswordField';
export { SearchForm } from './SearchForm';
export { Select } from './Select';
export { useForm } from './useForm';
