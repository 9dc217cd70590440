export { BackButton, CloseButton, linkButtonClass, PrimaryButton, SecondaryButton } from './buttons';
export { controlProps, Field, inputClass, TextField } from './field';
export { Notice } from './Notice';
export { PasswordField } from './PasswordField';
export { Select } from './Select';
