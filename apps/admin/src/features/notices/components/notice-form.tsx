import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Col, DatePicker, Form, type FormInstance, Row, Select, Tabs } from 'antd';
// antd's date pickers hold dayjs values.
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import {
  NOTICE_AUDIENCES,
  NOTICE_BODY_MAX,
  NOTICE_TITLE_MAX,
  type NoticeAudience,
  type Translated,
} from '@skyway/shared/notices';
import { ApiError } from '@skyway/shared/api-error';
import { LANGUAGE_NAMES } from '../../../lib/i18n.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { MarkdownFields, MarkdownHtml } from '../../../components/markdown-fields.tsx';
import { type Notice, NOTICES_KEY } from '../api/list-notices.ts';
import { useNoticePreview } from '../api/preview-notice.ts';
import { type NoticeBody, saveNotice } from '../api/save-notice.ts';

/** The form's values: the times as the date pickers hold them (none: a draft, or no expiry). */
interface NoticeValues {
  title: Translated;
  body: Translated;
  audience: NoticeAudience;
  on_download_page: boolean;
  by_mail: boolean;
  publish_at: Dayjs | null;
  expire_at: Dayjs | null;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const empty: Translated = { en: '', zh: '', tw: '' };
const dayOf = (iso: string | null) => (iso ? dayjs(iso) : null);

const valuesOf = (notice: Notice | null): NoticeValues =>
  notice
    ? {
        title: notice.title,
        body: notice.body,
        audience: notice.audience,
        on_download_page: notice.on_download_page,
        by_mail: notice.by_mail,
        publish_at: dayOf(notice.publish_at),
        expire_at: dayOf(notice.expire_at),
      }
    : {
        title: empty,
        body: empty,
        audience: 'all',
        on_download_page: false,
        by_mail: false,
        publish_at: null,
        expire_at: null,
      };

const bodyOf = (values: NoticeValues): NoticeBody => ({
  title: values.title,
  body: values.body,
  audience: values.audience,
  on_download_page: values.on_download_page,
  by_mail: values.by_mail,
  publish_at: values.publish_at?.toISOString() ?? null,
  expire_at: values.expire_at?.toISOString() ?? null,
});

/** A notice's rendered body (sanitized by the server, which escapes any HTML typed into the Markdown). */
export function NoticeHtml(props: { html: string }) {
  return <MarkdownHtml html={props.html} className="notice-html" />;
}

/** The server's rendering of the body in every language, as customers will see it. */
const useRendered = (body: Translated) => {
  const result = useNoticePreview(body);
  return { ...result, data: result.data?.body_html };
};

/** One language's title and Markdown body, and the switch to see the body as customers will. */
function LanguageFields(props: { form: FormInstance<NoticeValues>; language: Language }) {
  const { t } = useTranslation('notices');
  return (
    <MarkdownFields
      form={props.form}
      language={props.language}
      name="notice"
      labels={{
        title: t('noticeTitle'),
        body: t('noticeBody'),
        bodyHint: t('noticeBodyHint'),
        previewEmpty: t('previewEmpty'),
        previewHint: t('previewHint'),
      }}
      limits={{ title: NOTICE_TITLE_MAX, body: NOTICE_BODY_MAX }}
      usePreview={useRendered}
      htmlClass="notice-html"
    />
  );
}

/**
 * Writes a notice, or changes one: its title and Markdown body in every language (each previewed
 * as customers will see it), who it is for, where it shows, and when it publishes and expires.
 */
export function NoticeModal(props: { open: boolean; notice: Notice | null; onClose: () => void }) {
  const { t } = useTranslation(['notices', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<NoticeValues>();
  const [tab, setTab] = useState<Language>('en');
  const { notice } = props;
  return (
    <FormModal
      open={props.open}
      title={notice ? t('editNotice') : t('newNotice')}
      width={880}
      form={form}
      initialValues={valuesOf(notice)}
      onClose={props.onClose}
      testId="notice-form"
      onInvalid={(fields) => {
        // A language's field that failed its check may be on a tab not in view.
        const language = fields.map((name) => name[1]).find((key) => LANGUAGES.includes(key as Language));
        if (language) setTab(language as Language);
      }}
      onSubmit={async (values) => {
        const body = bodyOf(values);
        try {
          await saveNotice(notice?.id, body);
        } catch (error) {
          // A refused title or body names no one language: said as a message, not under a field.
          if (error instanceof ApiError && (error.field === 'title' || error.field === 'body')) {
            throw new ApiError(error.code, error.message, { reason: error.reason });
          }
          throw error;
        } finally {
          await client.invalidateQueries({ queryKey: NOTICES_KEY });
        }
      }}
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Language)}
        items={LANGUAGES.map((language) => ({
          key: language,
          label: LANGUAGE_NAMES[language],
          // Every language stays on the form, in view or not: all three are sent and checked.
          forceRender: true,
          children: <LanguageFields form={form} language={language} />,
        }))}
      />
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="audience" label={t('audience')} extra={t('audienceHint')}>
            <Select
              options={NOTICE_AUDIENCES.map((audience) => ({
                value: audience,
                label: t(`audience_${audience}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="on_download_page" valuePropName="checked" style={{ marginBottom: 8 }}>
            <Checkbox>{t('onDownloadPage')}</Checkbox>
          </Form.Item>
          <Form.Item name="by_mail" valuePropName="checked" extra={t('byMailHint')}>
            <Checkbox>{t('byMail')}</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="publish_at" label={t('publishAt')} extra={t('publishAtHint')}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              placeholder={t('keepAsDraft')}
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item
            name="expire_at"
            label={t('noticeExpireAt')}
            extra={t('noticeExpireAtHint')}
            dependencies={['publish_at']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_, expiry: Dayjs | null) => {
                  const publish = getFieldValue('publish_at') as Dayjs | null;
                  if (publish && expiry && !expiry.isAfter(publish)) throw new Error(t('expiryAfterPublish'));
                },
              }),
            ]}
          >
            <DatePicker showTime format={TIME_FORMAT} placeholder={t('noExpiry')} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
