/** The lims design system: compose every screen from these (docs/ui.md). */
export {
  Button,
  LinkButton,
  RefreshButton,
  buttonClass,
  type ButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './Button';
export {
  Input,
  SearchInput,
  Textarea,
  Select,
  type InputProps,
  type SearchInputProps,
  type TextareaProps,
  type SelectProps,
  type SelectOption,
} from './Input';
export { Checkbox, Switch, type CheckboxProps, type SwitchProps } from './Checkbox';
export { RadioCard, type RadioCardProps } from './RadioCard';
export { FormField, type FormFieldProps, type ControlProps } from './FormField';
export { Card, CardHeader, CardBody, type CardHeaderProps } from './Card';
export { Badge, statusTone, type BadgeProps, type BadgeTone } from './Badge';
export { BrowserName } from './BrowserName';
export { Tooltip, IconButton, type TooltipProps, type IconButtonProps } from './Tooltip';
export { Dialog, type DialogProps } from './Dialog';
export { FormDialog, ConfirmDialog, deleteMessage, type FormDialogProps, type ConfirmDialogProps } from './FormDialog';
export { DataTable, queryState, type Column, type RowAction, type SortState, type DataTableProps } from './DataTable';
export { SignedOutCard, type SignedOutCardProps } from './SignedOutCard';
export { patientColumns } from './PatientColumns';
export { TermsCard, type TermsCardProps } from './TermsCard';
export { NameCell, type NameCellProps } from './NameCell';
export { Pagination, QueryPagination, type PaginationProps } from './Pagination';
export { PageHeader, type PageHeaderProps } from './PageHeader';
export { ScreenHeader, type ScreenHeaderProps } from './ScreenHeader';
export { SummaryCard, SummaryCards, type SummaryCardItem, type SummaryCardProps } from './SummaryCard';
export { FilterBar, type FilterBarProps, type FilterSelect } from './FilterBar';
export {
  ErrorPanel,
  FullPageLoading,
  LoadingState,
  EmptyState,
  type ErrorPanelProps,
  type LoadingStateProps,
  type EmptyStateProps,
} from './States';
export { Money, DateText, type MoneyProps, type DateTextProps } from './Money';
export { NoAccess, type NoAccessProps } from './NoAccess';
export { ListFilterBar, ListTable, clearFiltersEmpty, type ListFilterBarProps, type ListTableProps } from './ListTable';
export { FilteredTable, type FilteredTableProps } from './FilteredTable';
export { RequirePermission, type RequirePermissionProps } from './RequirePermission';
export { RequireScreenPermission, type RequireScreenPermissionProps } from './RequireScreenPermission';
export { screenPermissionPage } from './ScreenPermissionPage';
export { AuthenticatorSetup, OneTimeCodeInput, RecoveryCodes } from './TwoFactor';
export { InvitationLink, type InvitationLinkProps } from './InvitationLink';
export { MachineSelect } from './MachineSelect';
export { DateRangeFields, rangeIsBackwards, type DateRangeFieldsProps } from './DateRangeFields';
export {
  LIST_DATE_RANGE,
  LIST_DATE_RANGE_KEYS,
  ListDateRangeFields,
  listDateRange,
  type ListDateRange,
} from './ListDateRange';
export {
  NewPasswordFields,
  PersonNameFields,
  PhoneAndSpecialization,
  staffPersonBody,
  staffPersonDefaults,
} from './StaffFields';
export { LabPasswordHint, PasswordRules, type PasswordRulesProps } from './PasswordRules';
export { useRowDialogs } from './RowDialogs';
export { MonthPicker, isPastMonth, previousMonth } from './MonthPicker';
export { FileLinkButton, type FileLinkButtonProps } from './FileLinkButton';
