import { useState } from 'react';
import { CERTIFICATE_MAX_BYTES, type Calibration } from '@shared/schemas/equipment';
import { calibrationsApi } from '@shared/api/equipment';
import { FormDialog, FormField } from '@/components';
import { contractUrl } from '@/lib/api';
import { fileToBase64, useUploadCertificateMutation } from '../api';

/** Upload (or replace) a calibration's certificate: PDF or image, checked by the server from its content. */
export function CertificateDialog({
  record,
  onOpenChange,
}: {
  record: Calibration | null;
  onOpenChange: (o: boolean) => void;
}) {
  const upload = useUploadCertificateMutation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  if (!record) return null;
  const submit = async () => {
    if (!file) return setError('Choose a PDF or an image');
    if (file.size > CERTIFICATE_MAX_BYTES) return setError('The file is larger than 5 MB');
    setError(undefined);
    const content_base64 = await fileToBase64(file);
    upload.mutate(
      { id: record.id, file_name: file.name, content_base64 },
      {
        onSuccess: () => {
          setFile(null);
          onOpenChange(false);
        },
        onError: (err) => setError(err instanceof Error ? err.message : String(err)),
      },
    );
  };
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Certificate: ${record.equipment_name}`}
      description="A PDF or an image (PNG, JPEG, WebP) of at most 5 MB, kept in the lab's database."
      busy={upload.isPending}
      onSubmit={() => void submit()}
      submitLabel="Upload Certificate"
      busyLabel="Uploading..."
    >
      <div className="grid gap-3">
        {record.certificate && (
          <p className="text-[13px]">
            Current:{' '}
            <a
              className="text-blue-700 underline"
              href={contractUrl(calibrationsApi.certificate, { params: { id: record.id } })}
              target="_blank"
              rel="noreferrer"
            >
              {record.certificate.file_name}
            </a>{' '}
            (uploading replaces it)
          </p>
        )}
        <FormField label="Certificate file" required error={error}>
          <input
            type="file"
            accept="application/pdf,image/png,image/jpeg,image/webp"
            className="text-[13px]"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </FormField>
      </div>
    </FormDialog>
  );
}
