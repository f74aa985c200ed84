import { Button, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router';

type Props = Omit<ButtonProps, 'href' | 'onClick'> & { to: string };

/**
 * A button-looking link to a page of the app: a real link (it can be opened in a new tab, and reads
 * as a link), which navigates inside the app when clicked.
 */
export function LinkButton({ to, ...button }: Props) {
  const navigate = useNavigate();
  return (
    <Button
      {...button}
      href={to}
      onClick={(event) => {
        event.preventDefault();
        void navigate(to);
      }}
    />
  );
}
