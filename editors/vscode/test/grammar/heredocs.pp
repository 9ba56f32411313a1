script = <<EOT
#!/bin/sh
echo "${name}" # not a comment
$${literal} and %{ if debug }set -x%{ endif }
EOT

indented = <<-HTML
    <html>
      <body>%{~ for p in pages ~}<a href="${p}.html">${p}</a>%{ endfor ~}</body>
    </html>
    HTML

marker = <<END
the word END inside a line does not close it
  END
next = "still code"
