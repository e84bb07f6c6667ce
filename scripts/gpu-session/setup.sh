# Sourced on the GPU machine (README.md): the Vulkan loaders, Node on PATH, the node_modules.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/bin
xz -dc .dev/node.xz > /tmp/bin/node && chmod +x /tmp/bin/node
export PATH=/tmp/bin:$PATH
tar -xJf .dev/nm.tar.xz
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
[ -f "$egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$egl
node -v
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
