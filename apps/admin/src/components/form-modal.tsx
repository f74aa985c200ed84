import { App, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@skyway/shared/api-error';

/**
 * A form in a dialog whose values go to the server. A refusal that names a field on the form shows
 * under that field, in the server's words (already in the member's language); any other refusal
 * shows as a message. The dialog closes once the server has taken the values.
 */
export function FormModal<Values extends object>(props: {
  open: boolean;
  title: string;
  /** The dialog's width, when its fields go two by two. */
  width?: number;
  /** The confirming button's text; Save unless said. */
  okText?: string;
  form: FormInstance<Values>;
  initialValues: Partial<Values>;
  onClose: () => void;
  onSubmit: (values: Values) => Promise<unknown>;
  onValuesChange?: (changed: Partial<Values>, all: Values) => void;
  /**
   * Where on the form a field the server names is (for a form whose fields are nested, e.g.
   * `settings` → `['settings', 'url']`); none: the refusal shows as a message. Without it, a
   * top-level field of the same name.
   */
  serverField?: (field: string) => (string | number)[] | undefined;
  /** The names of the fields that failed the form's own checks (to bring a hidden one into view). */
  onInvalid?: (fields: (string | number)[][]) => void;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const { form } = props;
  return (
    <Modal
      open={props.open}
      title={props.title}
      width={props.width}
      okText={props.okText ?? t('save')}
      cancelText={t('cancel')}
      confirmLoading={busy}
      destroyOnHidden
      onCancel={props.onClose}
      onOk={async () => {
        let values: Values;
        try {
          values = await form.validateFields();
        } catch (invalid) {
          // The form shows what is wrong under each field; nothing is sent.
          const fields = (invalid as { errorFields?: { name: (string | number)[] }[] }).errorFields ?? [];
          props.onInvalid?.(fields.map((field) => field.name));
          return;
        }
        setBusy(true);
        try {
          await props.onSubmit(values);
          message.success(t('done'));
          props.onClose();
        } catch (error) {
          // The fields on the form now: those the current choices show.
          const shown = Object.keys(form.getFieldsValue() as object);
          const field = error instanceof ApiError ? error.field : undefined;
          const name =
            field &&
            (props.serverField ? props.serverField(field) : shown.includes(field) ? [field] : undefined);
          if (name) {
            form.setFields([{ name: name as never, errors: [(error as Error).message] }]);
          } else {
            message.error(error instanceof Error ? error.message : String(error));
          }
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={props.initialValues}
        onValuesChange={props.onValuesChange}
        data-testid={props.testId}
      >
        {props.children}
      </Form>
    </Modal>
  );
}
