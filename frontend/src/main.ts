import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { applyLanguage, keptLanguage } from './lib/i18n.svelte';

// The language last chosen, until the settings say it again.
applyLanguage(keptLanguage());

const app = mount(App, { target: document.getElementById('app')! });

export default app;
