// Runs only in browsers without JavaScript modules: shows the "this browser cannot run mnk" note.
document.documentElement.className += ' no-modules';
