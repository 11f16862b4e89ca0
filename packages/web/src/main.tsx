// Entry: drop an expired or unreadable token, apply the theme, render the app.
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { dropUnusableToken } from './lib/client';
import { applyTheme, initTheme } from './lib/theme';
import './index.css';

dropUnusableToken();
applyTheme(initTheme());

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
