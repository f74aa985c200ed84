import { Alert, Flex, Form, type FormInstance, Input, Spin, Switch, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@skyway/shared/languages';
import type { Translated } from '@skyway/shared/notices';
import { LANGUAGE_NAMES } from '../lib/i18n.ts';

const empty: Translated = { en: '', zh: '', tw: '' };

/** Rendered Markdown, sanitized by the server (which escapes any HTML typed into the Markdown). */
export function MarkdownHtml(props: { html: string; className: string }) {
  return (
    <div
      className={props.className}
      style={{ overflowWrap: 'anywhere' }}
      dangerouslySetInnerHTML={{ __html: props.html }}
    />
  );
}

/** The server's rendering of a body in every language, as a TanStack query of it. */
export type BodyPreviewQuery = (body: Translated) => {
  data?: Record<Language, string> | undefined;
  error: Error | null;
  isPending: boolean;
};

export interface MarkdownFieldsProps {
  /** A form whose values hold `title` and `body`, each text by language. */
  form: FormInstance;
  language: Language;
  /** Names the body's field (`<name>-body-<language>`) and its preview (`<name>-preview-<language>`). */
  name: string;
  labels: { title: string; body: string; bodyHint: ReactNode; previewEmpty: string; previewHint?: string };
  limits: { title: number; body: number };
  usePreview: BodyPreviewQuery;
  /** The class the rendered body takes (its styles are the screen's). */
  htmlClass: string;
}

/** The body in one language as customers will see it: the server renders every language at once. */
function BodyPreview(props: MarkdownFieldsProps) {
  const title = (Form.useWatch(['title', props.language], props.form) as string | undefined) ?? '';
  const body = { ...empty, ...(Form.useWatch('body', props.form) as Partial<Translated> | undefined) };
  const result = props.usePreview(body);
  const html = result.data?.[props.language];
  return (
    <div
      data-testid={`${props.name}-preview-${props.language}`}
      style={{
        border: '1px solid #d9d9d9',
        borderRadius: 6,
        padding: '8px 12px',
        maxHeight: 520,
        overflow: 'auto',
      }}
    >
      {result.error && <Alert type="error" title={result.error.message} />}
      {result.isPending && <Spin />}
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {html ? (
        <MarkdownHtml html={html} className={props.htmlClass} />
      ) : (
        result.data && <Typography.Text type="secondary">{props.labels.previewEmpty}</Typography.Text>
      )}
    </div>
  );
}

/**
 * One language's title and Markdown body, and the switch to see the body as customers will (a
 * notice, a help article). The body stays on the form while previewing, so its value and checks stay.
 */
export function MarkdownFields(props: MarkdownFieldsProps) {
  const { t } = useTranslation('common');
  const [previewing, setPreviewing] = useState(false);
  const { language, labels, name } = props;
  const required = { required: true, whitespace: true, message: t('required') };
  return (
    <>
      <Form.Item name={['title', language]} label={labels.title} rules={[required]}>
        <Input maxLength={props.limits.title} autoComplete="off" />
      </Form.Item>
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <label htmlFor={`${name}-body-${language}`}>{labels.body}</label>
        <Flex gap={8} align="center">
          <Switch
            size="small"
            checked={previewing}
            aria-label={`${t('preview')} ${LANGUAGE_NAMES[language]}`}
            onChange={setPreviewing}
          />
          <span>{t('preview')}</span>
        </Flex>
      </Flex>
      <Form.Item name={['body', language]} rules={[required]} extra={labels.bodyHint} hidden={previewing}>
        <Input.TextArea id={`${name}-body-${language}`} maxLength={props.limits.body} showCount rows={14} />
      </Form.Item>
      {previewing && (
        <>
          <BodyPreview {...props} />
          {labels.previewHint && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {labels.previewHint}
            </Typography.Paragraph>
          )}
        </>
      )}
    </>
  );
}
