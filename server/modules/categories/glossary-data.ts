// The category glossary: Chinese names for Mercado Libre's category names, kept as data so the picker's Chinese search
// and PredictMeliCategory's Chinese-name match work on a fresh start, with no translation service. One line per
// category: the Chinese name, then the names it has on the sites (Spanish, Portuguese, English; a name is the same
// category on every site of its language). Keyed by name, not id: the built-in sandbox's ids come from its seed, and
// Mexico, Chile and Colombia share names. Sources: the built-in sandbox's trees, whole (first block); the real sites'
// top levels and their common second levels, as Mercado Libre names them (second block). AckCategory's translation
// fills only what is still without a Chinese name, so these stay.
export const SANDBOX_GLOSSARY = `
电子、音频和视频 | Electrónica, Audio y Video | Eletrônicos, Áudio e Vídeo | Electronics, Audio and Video
音频 | Audio | Áudio
耳机 | Audífonos | Fones de Ouvido | Headphones
无线耳机 | Audífonos Inalámbricos | Fones Sem Fio | Wireless Headphones
有线耳机 | Audífonos con Cable | Fones com Fio | Wired Headphones
游戏耳机 | Audífonos Gamer | Headsets Gamer | Gaming Headsets
便携音箱 | Bocinas Portátiles | Caixas de Som Portáteis | Portable Speakers
回音壁 | Barras de Sonido | Soundbars
麦克风 | Micrófonos | Microfones | Microphones
功放 | Amplificadores | Amplifiers
视频 | Video | Vídeo
投影仪 | Proyectores | Projetores | Projectors
流媒体播放器 | Dispositivos de Streaming | Streaming Devices
电视支架 | Soportes para TV | Suportes para TV | TV Mounts
投影幕布 | Pantallas de Proyección | Telas de Projeção | Projector Screens
电视机 | Televisores | Televisions
相机及配件 | Cámaras y Accesorios | Câmeras e Acessórios | Cameras and Accessories
数码相机 | Cámaras Digitales | Câmeras Digitais | Digital Cameras
运动相机 | Cámaras Deportivas | Câmeras Esportivas | Action Cameras
监控摄像头 | Cámaras de Seguridad | Câmeras de Segurança | Security Cameras
三脚架 | Tripiés | Tripés | Tripods
相机镜头 | Lentes para Cámaras | Lentes para Câmeras | Camera Lenses
补光灯 | Aros de Luz | Ring Lights
无人机及配件 | Drones y Accesorios | Drones e Acessórios | Drones and Accessories
航拍无人机 | Drones con Cámara | Drones com Câmera | Drones with Camera
无人机电池 | Baterías para Drones | Baterias para Drones | Drone Batteries
无人机螺旋桨 | Hélices para Drones | Drone Propellers
电子元器件 | Componentes Electrónicos | Componentes Eletrônicos | Electronic Components
开发板 | Placas de Desarrollo | Placas de Desenvolvimento | Development Boards
LED灯带 | Tiras LED | Fitas LED | LED Strips
电源 | Fuentes de Alimentación | Fontes de Alimentação | Power Supplies
手机和电话 | Celulares y Teléfonos | Celulares e Telefones | Cell Phones and Telephones
手机 | Celulares y Smartphones | Celulares e Smartphones | Cell Phones and Smartphones
手机配件 | Accesorios para Celulares | Acessórios para Celulares | Cell Phone Accessories
手机壳 | Fundas y Estuches | Capas e Capinhas | Cellphone Cases
iPhone手机壳 | Fundas para iPhone | Capinhas para iPhone | iPhone Cases
三星手机壳 | Fundas para Samsung | Capinhas para Samsung | Samsung Cases
小米手机壳 | Fundas para Xiaomi | Capinhas para Xiaomi | Xiaomi Cases
手机贴膜 | Protectores de Pantalla | Películas Protetoras | Screen Protectors
充电器 | Cargadores | Carregadores | Chargers
充电宝 | Baterías Externas | Carregadores Portáteis | Power Banks
USB数据线 | Cables USB | Cabos USB | USB Cables
手机支架 | Soportes para Celular | Suportes para Celular | Phone Holders
自拍杆 | Bastones para Selfie | Bastões de Selfie | Selfie Sticks
智能手表及配件 | Smartwatches y Accesorios | Smartwatches e Acessórios | Smartwatches and Accessories
智能手表 | Smartwatches
智能手环 | Pulseras Inteligentes | Pulseiras Inteligentes | Smart Bands
智能手表表带 | Correas para Smartwatch | Pulseiras para Smartwatch | Smartwatch Straps
座机电话 | Teléfonos Fijos | Telefones Fixos | Landline Phones
电脑 | Computación | Informática | Computers
笔记本电脑及配件 | Laptops y Accesorios | Notebooks e Acessórios | Laptops and Accessories
笔记本电脑 | Laptops | Notebooks
电脑包 | Mochilas y Fundas para Laptop | Mochilas e Cases para Notebook | Laptop Bags
笔记本支架 | Bases para Laptop | Suportes para Notebook | Laptop Stands
笔记本充电器 | Cargadores para Laptop | Carregadores para Notebook | Laptop Chargers
电脑外设 | Periféricos de PC | PC Peripherals
键盘 | Teclados | Keyboards
鼠标 | Mouses | Mice
鼠标垫 | Mouse Pads | Mousepads
摄像头 | Webcams
USB集线器 | Hubs USB | USB Hubs
存储设备 | Almacenamiento | Armazenamento | Storage
U盘 | Memorias USB | Pen Drives | USB Flash Drives
存储卡 | Tarjetas de Memoria | Cartões de Memória | Memory Cards
固态硬盘 | Discos SSD | SSDs | Solid State Drives
移动硬盘 | Discos Duros Externos | HDs Externos | External Hard Drives
网络设备 | Conectividad y Redes | Redes e Wireless | Networking
路由器 | Routers | Roteadores
WiFi信号放大器 | Repetidores WiFi | Repetidores Wi-Fi | WiFi Extenders
网线 | Cables de Red | Cabos de Rede | Network Cables
显示器 | Monitores | Monitors
平板电脑及配件 | Tablets y Accesorios | Tablets e Acessórios | Tablets and Accessories
平板电脑 | Tablets
平板保护套 | Fundas para Tablets | Capas para Tablets | Tablet Cases
触控笔 | Lápices Ópticos | Canetas Touch | Stylus Pens
家居、家具和园艺 | Hogar, Muebles y Jardín | Casa, Móveis e Decoração | Home, Furniture and Garden
厨房 | Cocina | Cozinha | Kitchen
锅具 | Baterías de Cocina | Panelas | Cookware
厨房刀具 | Cuchillos de Cocina | Facas de Cozinha | Kitchen Knives
厨房用具 | Utensilios de Cocina | Utensílios de Cozinha | Kitchen Utensils
保鲜盒 | Recipientes para Alimentos | Potes para Alimentos | Food Containers
保温杯 | Termos | Garrafas Térmicas | Thermoses
装饰 | Decoración | Decoração | Decoration
挂钟 | Relojes de Pared | Relógios de Parede | Wall Clocks
仿真植物 | Plantas Artificiales | Plantas Artificiais | Artificial Plants
相框 | Portarretratos | Porta-Retratos | Picture Frames
装饰灯 | Luces Decorativas | Luzes Decorativas | Decorative Lights
墙贴 | Vinilos Decorativos | Adesivos de Parede | Wall Stickers
床上用品 | Ropa de Cama | Cama, Mesa e Banho | Bedding
床单 | Sábanas | Lençóis | Bed Sheets
枕头 | Almohadas | Travesseiros | Pillows
毯子 | Cobijas y Mantas | Cobertores e Mantas | Blankets
毛巾 | Toallas | Toalhas | Towels
家具 | Muebles | Móveis | Furniture
办公椅 | Sillas de Oficina | Cadeiras de Escritório | Office Chairs
置物架 | Repisas y Estantes | Prateleiras e Estantes | Shelves
鞋柜 | Zapateras | Sapateiras | Shoe Racks
书桌 | Escritorios | Escrivaninhas | Desks
收纳整理 | Organización | Organização | Home Organization
收纳盒 | Cajas Organizadoras | Caixas Organizadoras | Storage Boxes
衣架 | Ganchos y Ganchos para Ropa | Cabides | Hangers
抽屉收纳 | Organizadores de Cajón | Organizadores de Gaveta | Drawer Organizers
园艺和户外 | Jardín y Exterior | Jardim e Exterior | Garden and Outdoors
花盆 | Macetas | Vasos para Plantas | Flower Pots
园艺水管 | Mangueras de Jardín | Mangueiras de Jardim | Garden Hoses
太阳能灯 | Lámparas Solares | Luminárias Solares | Solar Lights
照明 | Iluminación | Iluminação | Lighting
LED灯泡 | Focos LED | Lâmpadas LED | LED Bulbs
台灯 | Lámparas de Escritorio | Luminárias de Mesa | Desk Lamps
吸顶灯 | Lámparas de Techo | Luminárias de Teto | Ceiling Lights
浴室 | Baño | Banheiro | Bathroom
花洒 | Regaderas | Chuveiros | Shower Heads
浴室地垫 | Tapetes de Baño | Tapetes de Banheiro | Bath Mats
浴室收纳 | Organizadores de Baño | Organizadores de Banheiro | Bathroom Organizers
家用电器 | Electrodomésticos | Eletrodomésticos | Home Appliances
厨房小家电 | Pequeños Electrodomésticos | Eletroportáteis de Cozinha | Small Kitchen Appliances
搅拌机 | Licuadoras | Liquidificadores | Blenders
空气炸锅 | Freidoras de Aire | Fritadeiras Elétricas | Air Fryers
咖啡机 | Cafeteras | Cafeteiras | Coffee Makers
电热水壶 | Hervidores Eléctricos | Chaleiras Elétricas | Electric Kettles
三明治机 | Sandwicheras | Sanduicheiras | Sandwich Makers
家居清洁电器 | Cuidado del Hogar | Cuidado da Casa | Home Care Appliances
吸尘器 | Aspiradoras | Aspiradores de Pó | Vacuum Cleaners
熨斗 | Planchas | Ferros de Passar | Irons
电风扇 | Ventiladores | Fans
加湿器 | Humidificadores | Umidificadores | Humidifiers
取暖器 | Calefactores | Aquecedores | Space Heaters
个护电器 | Cuidado Personal | Cuidados Pessoais | Personal Care Appliances
吹风机 | Secadoras de Pelo | Secadores de Cabelo | Hair Dryers
直发器 | Planchas para Cabello | Chapinhas | Hair Straighteners
剃须刀 | Rasuradoras | Barbeadores Elétricos | Electric Shavers
电动牙刷 | Cepillos de Dientes Eléctricos | Escovas de Dente Elétricas | Electric Toothbrushes
冰箱 | Refrigeradores | Geladeiras | Refrigerators
洗衣机 | Lavadoras | Máquinas de Lavar | Washing Machines
服装、箱包和鞋 | Ropa, Bolsas y Calzado | Calçados, Roupas e Bolsas | Clothing, Shoes and Bags
女装 | Ropa para Mujer | Roupas Femininas | Women's Clothing
连衣裙 | Vestidos | Dresses
女士衬衫 | Blusas | Blouses
打底裤 | Leggings
女士牛仔裤 | Jeans para Mujer | Calças Jeans Femininas | Women's Jeans
泳装 | Trajes de Baño | Moda Praia | Swimwear
女士内衣 | Lencería | Lingerie
男装 | Ropa para Hombre | Roupas Masculinas | Men's Clothing
T恤 | Playeras | Camisetas | T-Shirts
衬衫 | Camisas | Shirts
男士牛仔裤 | Jeans para Hombre | Calças Jeans Masculinas | Men's Jeans
卫衣 | Sudaderas | Moletons | Hoodies
夹克 | Chamarras | Jaquetas | Jackets
短裤 | Shorts | Bermudas
鞋 | Calzado | Calçados | Footwear
运动鞋 | Tenis | Tênis | Sneakers
跑步鞋 | Tenis para Correr | Tênis de Corrida | Running Shoes
休闲鞋 | Tenis Casuales | Tênis Casuais | Casual Sneakers
靴子 | Botas | Boots
凉鞋 | Sandalias | Sandálias | Sandals
拖鞋 | Pantuflas | Pantufas | Slippers
正装鞋 | Zapatos de Vestir | Sapatos Sociais | Formal Shoes
箱包 | Bolsas y Mochilas | Bolsas e Mochilas | Bags and Backpacks
手提包 | Bolsas de Mano | Bolsas Femininas | Handbags
双肩包 | Mochilas | Backpacks
钱包 | Carteras | Carteiras | Wallets
行李箱 | Maletas | Malas de Viagem | Suitcases
时尚配饰 | Accesorios de Moda | Acessórios da Moda | Fashion Accessories
太阳镜 | Lentes de Sol | Óculos de Sol | Sunglasses
帽子 | Gorras | Bonés | Caps
腰带 | Cinturones | Cintos | Belts
围巾 | Bufandas | Cachecóis | Scarves
美妆个护 | Belleza y Cuidado Personal | Beleza e Cuidado Pessoal | Beauty and Personal Care
彩妆 | Maquillaje | Maquiagem | Makeup
口红 | Labiales | Batons | Lipsticks
粉底 | Bases de Maquillaje | Bases | Foundations
眼影 | Sombras | Eyeshadows
化妆刷 | Brochas de Maquillaje | Pincéis de Maquiagem | Makeup Brushes
假睫毛 | Pestañas Postizas | Cílios Postiços | False Eyelashes
护肤 | Cuidado de la Piel | Cuidados com a Pele | Skin Care
面霜 | Cremas Faciales | Cremes Faciais | Face Creams
精华 | Sérums | Séruns | Face Serums
防晒霜 | Protectores Solares | Protetores Solares | Sunscreens
面膜 | Mascarillas | Máscaras Faciais | Face Masks
护发 | Cuidado del Cabello | Cuidados com o Cabelo | Hair Care
洗发水 | Shampoos | Xampus
发饰 | Accesorios para el Cabello | Acessórios para Cabelo | Hair Accessories
假发 | Pelucas | Perucas | Wigs
美甲 | Uñas | Unhas | Nails
指甲油 | Esmaltes | Nail Polish
美甲灯 | Lámparas para Uñas | Cabines para Unhas | Nail Lamps
假指甲 | Uñas Postizas | Unhas Postiças | Nail Tips
香水 | Perfumes | Fragrances
玩具和游戏 | Juegos y Juguetes | Brinquedos e Hobbies | Toys and Games
积木 | Juegos de Construcción | Blocos de Montar | Building Toys
娃娃及配件 | Muñecas y Accesorios | Bonecas e Acessórios | Dolls and Accessories
遥控玩具 | Vehículos a Control Remoto | Veículos de Controle Remoto | Remote Control Vehicles
遥控车 | Carros a Control Remoto | Carrinhos de Controle Remoto | RC Cars
遥控直升机 | Helicópteros a Control Remoto | Helicópteros de Controle Remoto | RC Helicopters
桌游 | Juegos de Mesa | Jogos de Tabuleiro | Board Games
拼图 | Rompecabezas | Quebra-Cabeças | Puzzles
毛绒玩具 | Peluches | Pelúcias | Plush Toys
益智玩具 | Juguetes Educativos | Brinquedos Educativos | Educational Toys
户外玩具 | Juegos al Aire Libre | Brinquedos para Área Externa | Outdoor Toys
泡泡玩具 | Burbujas | Bolhas de Sabão | Bubble Toys
水枪 | Pistolas de Agua | Pistolas de Água | Water Guns
风筝 | Papalotes | Pipas | Kites
运动健身 | Deportes y Fitness | Esportes e Fitness | Sports and Fitness
健身和力量训练 | Fitness y Musculación | Fitness e Musculação | Fitness and Training
哑铃 | Mancuernas | Halteres | Dumbbells
弹力带 | Bandas de Resistencia | Faixas Elásticas | Resistance Bands
瑜伽垫 | Tapetes de Yoga | Yoga Mats
跳绳 | Cuerdas para Saltar | Cordas de Pular | Jump Ropes
骑行 | Ciclismo | Cycling
自行车 | Bicicletas | Bicycles
自行车灯 | Luces para Bicicleta | Luzes para Bicicleta | Bike Lights
骑行头盔 | Cascos de Ciclismo | Capacetes de Ciclismo | Bike Helmets
露营、狩猎和钓鱼 | Camping, Caza y Pesca | Camping, Caça e Pesca | Camping, Hunting and Fishing
帐篷 | Casas de Campaña | Barracas | Tents
睡袋 | Bolsas de Dormir | Sacos de Dormir | Sleeping Bags
渔线轮 | Carretes de Pesca | Molinetes de Pesca | Fishing Reels
手电筒 | Linternas | Lanternas | Flashlights
团队运动 | Deportes de Equipo | Esportes Coletivos | Team Sports
足球 | Balones de Futbol | Bolas de Futebol | Soccer Balls
篮球 | Balones de Basquetbol | Bolas de Basquete | Basketballs
游泳 | Natación | Natação | Swimming
泳镜 | Goggles de Natación | Óculos de Natação | Swim Goggles
泳帽 | Gorras de Natación | Toucas de Natação | Swim Caps
工具 | Herramientas | Ferramentas | Tools
电动工具 | Herramientas Eléctricas | Ferramentas Elétricas | Power Tools
电钻 | Taladros | Furadeiras | Drills
电动螺丝刀 | Atornilladores | Parafusadeiras | Electric Screwdrivers
角磨机 | Esmeriladoras | Esmerilhadeiras | Angle Grinders
热风枪 | Pistolas de Calor | Sopradores Térmicos | Heat Guns
手动工具 | Herramientas Manuales | Ferramentas Manuais | Hand Tools
螺丝刀套装 | Juegos de Desarmadores | Jogos de Chaves de Fenda | Screwdriver Sets
扳手 | Llaves | Chaves | Wrenches
钳子 | Pinzas | Alicates | Pliers
工具箱 | Cajas de Herramientas | Caixas de Ferramentas | Tool Boxes
测量工具 | Medición | Medição | Measuring Tools
卷尺 | Flexómetros | Trenas | Tape Measures
激光水平仪 | Niveles Láser | Níveis a Laser | Laser Levels
万用表 | Multímetros | Multimeters
焊接 | Soldadura | Solda | Soldering
电烙铁 | Cautines | Ferros de Solda | Soldering Irons
焊台 | Estaciones de Soldadura | Estações de Solda | Soldering Stations
汽车用品 | Accesorios para Vehículos | Acessórios para Veículos | Vehicle Accessories
车载电子 | Electrónica para Autos | Som e Eletrônicos Automotivos | Car Electronics
行车记录仪 | Cámaras para Auto | Câmeras Veiculares | Dash Cams
汽车音响 | Estéreos para Auto | Som Automotivo | Car Stereos
车载充电器 | Cargadores para Auto | Carregadores Veiculares | Car Chargers
车载充气泵 | Compresores de Aire para Auto | Compressores de Ar Portáteis | Tire Inflators
汽车内饰 | Accesorios de Interior | Acessórios Internos | Interior Accessories
座椅套 | Cubreasientos | Capas de Banco | Seat Covers
汽车脚垫 | Tapetes para Auto | Tapetes Automotivos | Car Floor Mats
方向盘套 | Cubrevolantes | Capas de Volante | Steering Wheel Covers
车灯 | Iluminación para Vehículos | Iluminação Automotiva | Vehicle Lighting
车头灯泡 | Focos para Faros | Lâmpadas para Faróis | Headlight Bulbs
LED灯条 | Barras de Luz | Barras de LED | Light Bars
摩托车配件 | Accesorios para Motos | Acessórios para Motos | Motorcycle Accessories
摩托车头盔 | Cascos para Moto | Capacetes para Moto | Motorcycle Helmets
摩托车手套 | Guantes para Moto | Luvas para Moto | Motorcycle Gloves
摩托车车罩 | Cubiertas para Moto | Capas para Moto | Motorcycle Covers
宠物用品 | Animales y Mascotas | Animais | Pets and Animals
狗 | Perros | Cachorros | Dogs
狗窝 | Camas para Perros | Camas para Cachorro | Dog Beds
狗项圈 | Collares para Perros | Coleiras para Cachorro | Dog Collars
狗玩具 | Juguetes para Perros | Brinquedos para Cachorro | Dog Toys
狗衣服 | Ropa para Perros | Roupas para Cachorro | Dog Clothes
猫 | Gatos | Cats
猫抓板 | Rascadores | Arranhadores | Cat Scratchers
猫砂盆 | Areneros | Caixas de Areia | Cat Litter Boxes
猫玩具 | Juguetes para Gatos | Brinquedos para Gato | Cat Toys
水族 | Acuarios | Aquários | Aquariums
鱼缸过滤器 | Filtros para Acuarios | Filtros para Aquário | Aquarium Filters
鱼缸灯 | Iluminación para Acuarios | Iluminação para Aquário | Aquarium Lights
宠物喂食器和饮水器 | Comederos y Bebederos | Comedouros e Bebedouros | Pet Feeders
母婴 | Bebés | Bebês | Baby
婴儿喂养 | Alimentación del Bebé | Alimentação do Bebê | Baby Feeding
奶瓶 | Biberones | Mamadeiras | Baby Bottles
安抚奶嘴 | Chupones | Chupetas | Pacifiers
儿童餐椅 | Sillas para Comer | Cadeiras de Alimentação | High Chairs
婴儿推车 | Carriolas | Carrinhos de Bebê | Baby Strollers
婴儿服装 | Ropa para Bebés | Roupas para Bebê | Baby Clothing
婴儿连体衣 | Pañaleros | Bodies | Baby Bodysuits
婴儿睡衣 | Pijamas para Bebé | Pijamas para Bebê | Baby Pajamas
婴儿安全 | Seguridad para Bebés | Segurança para Bebês | Baby Safety
婴儿监视器 | Monitores para Bebé | Babás Eletrônicas | Baby Monitors
安全门栏 | Rejas de Seguridad | Portões de Segurança | Safety Gates
婴儿洗浴 | Baño del Bebé | Banho do Bebê | Baby Bath
婴儿浴盆 | Tinas para Bebé | Banheiras para Bebê | Baby Bathtubs
婴儿体温计 | Termómetros para Bebé | Termômetros para Bebê | Baby Thermometers
文具、美术和缝纫 | Arte, Papelería y Mercería | Arte, Papelaria e Armarinho | Art, Stationery and Crafts
文具 | Papelería | Papelaria | Stationery
笔记本 | Cuadernos | Cadernos | Paper Notebooks
笔 | Bolígrafos | Canetas | Pens
马克笔 | Marcadores | Markers
便利贴 | Notas Adhesivas | Blocos Adesivos | Sticky Notes
美术用品 | Artículos de Arte | Materiais de Arte | Art Supplies
画笔 | Pinceles | Pincéis | Paint Brushes
丙烯颜料 | Pinturas Acrílicas | Tintas Acrílicas | Acrylic Paints
素描本 | Blocks de Dibujo | Cadernos de Desenho | Sketchbooks
缝纫用品 | Mercería | Armarinho | Sewing
缝纫机 | Máquinas de Coser | Máquinas de Costura | Sewing Machines
缝纫线 | Hilos | Linhas | Sewing Threads
标签打印机 | Impresoras de Etiquetas | Impressoras de Etiquetas | Label Printers
珠宝和手表 | Joyas y Relojes | Joias e Relógios | Jewelry and Watches
手表 | Relojes | Relógios | Watches
腕表 | Relojes de Pulsera | Relógios de Pulso | Wrist Watches
表带 | Extensibles para Reloj | Pulseiras para Relógio | Watch Straps
珠宝和饰品 | Joyas y Bisutería | Joias e Bijuterias | Jewels and Costume Jewelry
项链 | Collares | Colares | Necklaces
耳环 | Aretes | Brincos | Earrings
手链 | Pulseras | Pulseiras | Bracelets
戒指 | Anillos | Anéis | Rings
首饰盒 | Joyeros | Porta-Joias | Jewelry Boxes
`;

/** The real sites' upper levels (the names Mercado Libre lists under /sites/{SITE}/categories and their children). */
export const SITE_GLOSSARY = `
摩托车及四轮车配件 | Acc. para Motos y Cuatriciclos
汽车及皮卡配件 | Accesorios de Auto y Camioneta
车载音响 | Audio para Vehículos
汽车维修工具 | Herramientas para Vehículos
汽车清洁 | Limpieza de Vehículos
轮胎 | Neumáticos
汽车零配件 | Repuestos Autos y Camionetas
摩托车零配件 | Repuestos Motos y Cuatriciclos
汽车安全 | Seguridad Vehicular
汽车改装 | Tuning
其他 | Otros
农业 | Agro
食品饮料 | Alimentos y Bebidas
饮料 | Bebidas
鸟类 | Aves
宠物牵引绳 | Correas para Mascotas
宠物笼 | Jaulas para Mascotas
鱼类 | Peces
古董和收藏品 | Antigüedades y Colecciones
文具、美术和缝纫 | Arte, Librería y Mercería
手工艺品 | Arte y Manualidades
文具 | Librería
婴儿洗浴用品 | Artículos de Bebés para Baño
孕产用品 | Artículos de Maternidad
奶嘴和牙胶 | Chupetes y Mordillos
婴儿房 | Cuarto del Bebé
婴儿护理 | Higiene y Cuidado del Bebé
婴儿玩具 | Juegos y Juguetes para Bebés
哺乳和喂养 | Lactancia y Alimentación
婴儿出行 | Paseo del Bebé
婴儿服装和鞋 | Ropa y Calzado para Bebés
美发电器 | Artefactos para el Cabello
脱毛 | Depilación
个人卫生 | Higiene Personal
美甲 | Manicuría y Pedicuría
相机配件 | Accesorios para Cámaras
相机 | Cámaras
摄像机和运动相机 | Filmadoras y Cámaras de Acción
镜头和滤镜 | Lentes y Filtros
对讲机 | Handies y Radiofrecuencia
VR眼镜 | Lentes de Realidad Virtual
手机维修配件 | Repuestos de Celulares
固定和无绳电话 | Telefonía Fija e Inalámbrica
电竞配件 | Accesorios para PC Gaming
数据线和USB集线器 | Cables y Hubs USB
电脑配件 | Componentes de PC
稳压器和UPS | Estabilizadores y UPS
打印 | Impresión
显示器及配件 | Monitores y Accesorios
笔记本电脑及配件 | Notebooks y Accesorios
台式电脑 | PC de Escritorio
投影仪和幕布 | Proyectores y Pantallas
软件 | Software
游戏机和电子游戏 | Consolas y Videojuegos
游戏机配件 | Accesorios para Consolas
游戏机 | Consolas
电子游戏 | Videojuegos
建材 | Construcción
电工 | Electricidad
油漆 | Pinturería
水暖 | Plomería
武术和拳击 | Artes Marciales y Boxeo
足球 | Fútbol
滑板车 | Monopatines y Scooters
轮滑和滑板 | Patín y Skateboard
普拉提和瑜伽 | Pilates y Yoga
运动服 | Ropa Deportiva
补剂和摇杯 | Suplementos y Shakers
家用电器 | Electrodomésticos y Aires Ac.
个护电器 | Artefactos de Cuidado Personal
空调暖通 | Climatización
烹饪电器 | Cocción
洗衣电器 | Lavado
制冷电器 | Refrigeración
影音配件 | Accesorios para Audio y Video
电视配件 | Accesorios para TV
遥控器 | Controles Remotos
流媒体播放器 | Media Streaming
电池和充电器 | Pilas y Cargadores
活动门票 | Entradas para Eventos
工具配件 | Accesorios para Herramientas
工具箱和收纳 | Cajas y Organizadores
工业工具 | Herramientas Industriales
园艺工具 | Herramientas para Jardín
测试和测量仪器 | Testers y Equipos de Medición
家居装饰 | Adornos y Decoración del Hogar
厨房用品 | Bazar y Cocina
浴室 | Baños
床、床垫及配件 | Camas, Colchones y Accesorios
家居清洁和洗衣 | Cuidado del Hogar y Lavandería
家居照明 | Iluminación para el Hogar
家具 | Muebles para el Hogar
家居收纳 | Organización para el Hogar
家居安防 | Seguridad para el Hogar
家纺 | Textiles de Hogar y Decoración
工业和办公 | Industrias y Oficinas
包装和物流 | Embalaje y Logística
医疗设备 | Equipamiento Médico
办公设备 | Equipamiento para Oficinas
餐饮酒店用品 | Gastronomía y Hotelería
劳保用品 | Seguridad Laboral
房地产 | Inmuebles
乐器 | Instrumentos Musicales
鼓和打击乐器 | Baterías y Percusión
DJ设备及配件 | Equipos de DJ y Accesorios
弦乐器 | Instrumentos de Cuerdas
管乐器 | Instrumentos de Viento
麦克风和放大器 | Micrófonos y Amplificadores
键盘和钢琴 | Teclados y Pianos
珠宝和饰品 | Joyas y Bijouterie
桌游和卡牌 | Juegos de Mesa y Cartas
户外游乐 | Juegos de Plaza y Aire Libre
积木 | Juguetes de Construcción
婴儿玩具 | Juguetes para Bebés
玩偶 | Muñecos y Muñecas
儿童骑行玩具 | Vehículos Montables para Niños
玩具车 | Vehículos de Juguete
图书、杂志和漫画 | Libros, Revistas y Comics
音乐、电影和剧集 | Música, Películas y Series
服装和配饰 | Ropa y Accesorios
行李箱包 | Equipaje, Bolsos y Carteras
裤子 | Pantalones
内衣和睡衣 | Ropa Interior y de Dormir
医疗保健 | Salud y Equipamiento Médico
健康护理 | Cuidado de la Salud
按摩 | Masajes
营养补充剂 | Suplementos Alimenticios
服务 | Servicios
纪念品、派对用品 | Souvenirs, Cotillón y Fiestas
派对装饰 | Decoración para Fiestas
服装道具和Cosplay | Disfraces y Cosplay
其他类目 | Otras categorías
`;
